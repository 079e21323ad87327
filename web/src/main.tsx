/**
 * The forwarder's web app: reads /app/config.json (how people sign in), completes a Cognito sign-in
 * redirect when there is one, then renders the page the URL fragment names.
 */
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { WebAppConfig } from "../../functions/contracts/web-app.ts";
import { APP_CONFIG_FILE } from "../../functions/contracts/web-app.ts";
import { onUnauthorized } from "./api.ts";
import { completeCognitoSignIn, currentSession, type Session, signOut } from "./auth.ts";
import { AwbLookup } from "./components/AwbLookup.tsx";
import { parseHash, type Route } from "./lib/hash-route.ts";
import { AlertsPage } from "./pages/Alerts.tsx";
import { RouteMapPage } from "./pages/RouteMap.tsx";
import { SharedPage } from "./pages/Shared.tsx";
import { ShipmentsPage } from "./pages/Shipments.tsx";
import { SignInPage } from "./pages/SignIn.tsx";
import "./styles.css";

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(location.hash));
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  return route;
}

interface HeaderProps {
  session: Session;
  page: Route["page"];
  onSignOut: () => void;
}

function Header({ session, page, onSignOut }: HeaderProps) {
  return (
    <header class="app-header">
      <a class="brand" href="#/shipments">
        Route Map Tracker
      </a>
      <nav aria-label="Main">
        <a href="#/shipments" aria-current={page === "shipments" || page === "routemap" ? "page" : undefined}>
          Shipments
        </a>
        <a href="#/alerts" aria-current={page === "alerts" ? "page" : undefined}>
          Alerts
        </a>
      </nav>
      <AwbLookup />
      <span class="who">{session.forwarderId}</span>
      <button type="button" class="secondary" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}

function App({ config, initialError }: { config: WebAppConfig; initialError: string | null }) {
  const route = useRoute();
  const [session, setSession] = useState<Session | null>(currentSession);
  const [notice, setNotice] = useState<string | null>(initialError);
  useEffect(
    () =>
      onUnauthorized(() => {
        setSession(null);
        setNotice("Your session has ended. Please sign in again.");
      }),
    [],
  );
  // Page titles follow the page, for tabs and screen readers; after a navigation inside the app the
  // focus moves to the new page's content, as a full page load would put it at the top.
  const firstRoute = useRef(true);
  useEffect(() => {
    document.title = `${titleOf(route)} · Route Map Tracker`;
    if (firstRoute.current) firstRoute.current = false;
    else document.getElementById("main")?.focus({ preventScroll: false });
  }, [route]);

  if (route.page === "shared")
    return (
      <main id="main" class="page shared" tabIndex={-1}>
        <SharedPage key={route.token} token={route.token} />
      </main>
    );
  if (!session)
    return (
      <main id="main" class="page narrow" tabIndex={-1}>
        <SignInPage
          config={config}
          notice={notice}
          onSignedIn={(signedIn) => {
            setNotice(null);
            setSession(signedIn);
          }}
        />
      </main>
    );
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header
        session={session}
        page={route.page}
        onSignOut={() => {
          setSession(null);
          signOut(config);
        }}
      />
      <main id="main" class="page" tabIndex={-1}>
        {route.page === "shipments" ? <ShipmentsPage /> : null}
        {route.page === "routemap" ? <RouteMapPage key={route.awb} awb={route.awb} /> : null}
        {route.page === "alerts" ? <AlertsPage /> : null}
        {route.page === "not-found" ? (
          <>
            <h1>Page not found</h1>
            <p>
              Nothing lives at {route.hash}. <a href="#/shipments">Go to the shipments</a>.
            </p>
          </>
        ) : null}
      </main>
    </>
  );
}

function titleOf(route: Route): string {
  switch (route.page) {
    case "shipments":
      return "Shipments";
    case "alerts":
      return "Alerts";
    case "routemap":
      return `Route map ${route.awb.slice(0, 3)}-${route.awb.slice(3)}`;
    case "shared":
      return "Shared route map";
    default:
      return "Not found";
  }
}

async function start(root: HTMLElement): Promise<void> {
  let config: WebAppConfig = { SignIn: "local" };
  let initialError: string | null = null;
  try {
    const response = await fetch(APP_CONFIG_FILE, { cache: "no-store" });
    if (response.ok) config = (await response.json()) as WebAppConfig;
  } catch {
    initialError = "The app's configuration could not be loaded; reload the page to try again.";
  }
  if (config.SignIn === "cognito") {
    try {
      await completeCognitoSignIn(config);
    } catch (error) {
      initialError = error instanceof Error ? error.message : "Sign-in failed.";
    }
  }
  root.textContent = "";
  render(<App config={config} initialError={initialError} />, root);
}

const root = document.getElementById("app");
if (root) void start(root);
