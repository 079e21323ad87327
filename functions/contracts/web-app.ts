/**
 * The web app's contract, shared by the app itself (web/), the local runner (bin/local serves it at
 * /app/) and the CDK stack (S3 behind CloudFront, lib/): where it lives, the configuration it reads at
 * start, and the security headers every one of its responses carries. Plain data: no CDK, no DOM.
 */

/** Path prefix the app is served under, on the same origin as the API (no CORS). */
export const APP_PATH = "/app/";

/** The configuration file the app fetches at start (`/app/config.json`). */
export const APP_CONFIG_FILE = "config.json";

/**
 * How people sign in: locally, the runner's dev sign-in (lists the onboarded forwarders); in AWS, the
 * Cognito managed login (authorization code with PKCE) of the web app's user-pool client.
 */
export type WebAppConfig =
  | { SignIn: "local" }
  | {
      SignIn: "cognito";
      /** `https://<prefix>.auth.<region>.amazoncognito.com` */
      CognitoDomain: string;
      ClientId: string;
      /** Space-separated OAuth scopes the app asks for. */
      Scopes: string;
    };

/** Local dev sign-in (bin/local only, never deployed): GET lists forwarders, POST mints a person's token. */
export const LOCAL_SIGN_IN_PATH = "/__local/sign-in";

/**
 * Content-Security-Policy of the app: only its own scripts and styles, API calls to its own origin
 * (plus the Cognito domain, where the sign-in code is exchanged for tokens), never framed.
 */
export function appContentSecurityPolicy(extraConnectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...extraConnectSources].join(" "),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers besides the CSP that every app response carries (CloudFront's response headers policy, the runner). */
export const APP_SECURITY_HEADERS = {
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
} as const;
