/** Sign-in: locally one button per onboarded forwarder (the runner's dev sign-in), in AWS Cognito. */
import { useEffect, useState } from "preact/hooks";
import type { WebAppConfig } from "../../../functions/contracts/web-app.ts";
import {
  type LocalForwarder,
  localForwarders,
  localSignIn,
  type Session,
  startCognitoSignIn,
} from "../auth.ts";

interface Props {
  config: WebAppConfig;
  notice: string | null;
  onSignedIn: (session: Session) => void;
}

export function SignInPage({ config, notice, onSignedIn }: Props) {
  const [forwarders, setForwarders] = useState<LocalForwarder[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (config.SignIn !== "local") return;
    localForwarders()
      .then(setForwarders)
      .catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)));
  }, [config.SignIn]);

  const signInAs = async (forwarderId: string) => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await localSignIn(forwarderId));
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="card sign-in">
      <h1>Sign in</h1>
      <p class="muted">Route Map Tracker: your shipments' journeys, alerts and share links.</p>
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {config.SignIn === "cognito" ? (
        <button type="button" class="primary" onClick={() => void startCognitoSignIn(config)}>
          Sign in
        </button>
      ) : (
        <>
          <p>Local development sign-in: choose a forwarder onboarded on this stack.</p>
          {forwarders === null && !error ? <p aria-live="polite">Loading forwarders…</p> : null}
          {forwarders?.length === 0 ? (
            <p>
              No forwarder is onboarded yet. Create one with <code>POST /support/forwarders</code> and reload.
            </p>
          ) : null}
          <ul class="plain sign-in-list">
            {forwarders?.map((forwarder) => (
              <li key={forwarder.Id}>
                <button
                  type="button"
                  class="primary"
                  disabled={busy}
                  onClick={() => void signInAs(forwarder.Id)}
                >
                  Sign in as {forwarder.Name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
