/**
 * GET /email-confirmations/{token} (public: the link of a confirmation e-mail): an HTML page naming the
 * address and the forwarder, with the Confirm button (POST to the same URL). Changes nothing, so a link
 * scanner opening the mail confirms nothing.
 */
import { nowIso } from "../../adapters/clock.ts";
import { CONFIRMATION_PAGE_CSP, confirmationPage } from "../../core/notifications/index.ts";
import { showEmailConfirmation } from "../../core/use-cases/show-email-confirmation.ts";
import { confirmationTokenFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { emailConfirmations } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof showEmailConfirmation>) =>
  httpRoute("show-email-confirmation", { params: { token: confirmationTokenFromPath } }).handle(
    async ({ params }) => {
      const pending = await showEmailConfirmation(deps(), { token: params.token, now: nowIso() });
      return {
        status: 200,
        text: confirmationPage(pending, "ask"),
        headers: {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "content-security-policy": CONFIRMATION_PAGE_CSP,
        },
      };
    },
  );

export const handler = make(() => ({ confirmations: emailConfirmations() }));
