/**
 * Who is signed in: the access token lives in sessionStorage (gone with the tab, never in a cookie the
 * API would have to guard against CSRF). Locally the runner's dev sign-in mints it; in AWS the Cognito
 * managed login does, through the authorization code flow with PKCE (RFC 7636) against the web app's
 * public client.
 */
import type { WebAppConfig } from "../../functions/contracts/web-app.ts";
import { LOCAL_SIGN_IN_PATH } from "../../functions/contracts/web-app.ts";
import { pkceChallenge, randomUrlSafe } from "./lib/pkce.ts";

const TOKEN_KEY = "rmt.token";
const PKCE_KEY = "rmt.pkce";

export interface Session {
  token: string;
  /** Who, for the header: the forwarder id of the token. */
  forwarderId: string;
  expiresAt: number;
}

export function currentToken(): string | null {
  const session = currentSession();
  return session ? session.token : null;
}

export function currentSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(TOKEN_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    if (typeof session.token !== "string" || session.expiresAt <= Date.now()) {
      sessionStorage.removeItem(TOKEN_KEY);
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

/** The claims the header shows; the token itself is verified by the service, never here. */
function claimsOf(token: string): Record<string, unknown> {
  try {
    const payload = token.split(".")[1] ?? "";
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function keep(token: string, expiresInSeconds: number): Session {
  const claims = claimsOf(token);
  const session: Session = {
    token,
    forwarderId: typeof claims.forwarder_id === "string" ? claims.forwarder_id : "",
    expiresAt: Date.now() + expiresInSeconds * 1000,
  };
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify(session));
  return session;
}

export function signOutLocally(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

export interface LocalForwarder {
  Id: string;
  Name: string;
}

export async function localForwarders(): Promise<LocalForwarder[]> {
  const response = await fetch(LOCAL_SIGN_IN_PATH, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`The dev sign-in answered ${response.status}.`);
  return ((await response.json()) as { Items: LocalForwarder[] }).Items;
}

export async function localSignIn(forwarderId: string): Promise<Session> {
  const response = await fetch(LOCAL_SIGN_IN_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ ForwarderId: forwarderId }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    detail?: string;
  };
  if (!response.ok || !body.access_token)
    throw new Error(body.detail ?? `Sign-in refused (${response.status}).`);
  return keep(body.access_token, body.expires_in ?? 3600);
}

type CognitoConfig = Extract<WebAppConfig, { SignIn: "cognito" }>;

/** Where Cognito sends the person back: the app's own page, as the user-pool client lists it. */
export const redirectUri = () => `${location.origin}/app/`;

/** Starts the managed login; the route the person wanted is kept to return to. */
export async function startCognitoSignIn(config: CognitoConfig): Promise<void> {
  const verifier = randomUrlSafe(64);
  const state = randomUrlSafe(24);
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state, hash: location.hash }));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: config.ClientId,
    redirect_uri: redirectUri(),
    scope: config.Scopes,
    state,
    code_challenge: await pkceChallenge(verifier),
    code_challenge_method: "S256",
  });
  location.assign(`${config.CognitoDomain}/oauth2/authorize?${query}`);
}

/**
 * Back from the managed login with `?code=&state=`: exchanges the code for tokens (the public client
 * has no secret; the PKCE verifier proves it started the flow), then drops the query from the URL.
 * Returns null when the page was not opened by a sign-in redirect.
 */
export async function completeCognitoSignIn(config: CognitoConfig): Promise<Session | null> {
  const query = new URLSearchParams(location.search);
  const code = query.get("code");
  const error = query.get("error");
  if (!code && !error) return null;
  const pending = JSON.parse(sessionStorage.getItem(PKCE_KEY) ?? "null") as {
    verifier: string;
    state: string;
    hash: string;
  } | null;
  sessionStorage.removeItem(PKCE_KEY);
  history.replaceState(null, "", `${location.pathname}${pending?.hash ?? ""}`);
  if (error) throw new Error(`Sign-in failed: ${query.get("error_description") ?? error}.`);
  if (!pending || pending.state !== query.get("state"))
    throw new Error("Sign-in failed: the answer does not belong to this sign-in. Please try again.");
  const response = await fetch(`${config.CognitoDomain}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: config.ClientId,
      code: code ?? "",
      redirect_uri: redirectUri(),
      code_verifier: pending.verifier,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
  if (!response.ok || !body.access_token) throw new Error(`Sign-in failed (${response.status}).`);
  return keep(body.access_token, body.expires_in ?? 3600);
}

/** Signs out: forgets the token; in AWS also ends the managed-login session. */
export function signOut(config: WebAppConfig | null): void {
  signOutLocally();
  if (config?.SignIn === "cognito") {
    const query = new URLSearchParams({ client_id: config.ClientId, logout_uri: redirectUri() });
    location.assign(`${config.CognitoDomain}/logout?${query}`);
  } else {
    location.hash = "#/";
  }
}
