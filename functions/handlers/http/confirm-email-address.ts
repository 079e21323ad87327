/**
 * POST /email-confirmations/{token} (public: the button of a confirmation page): confirms the address
 * for the forwarder that named it, sends the alerts held for it meanwhile (DELIVERY_QUEUE_URL); answers
 * an HTML page saying so.
 */
import { nowIso } from "../../adapters/clock.ts";
import { CONFIRMATION_PAGE_CSP, confirmationPage } from "../../core/notifications/index.ts";
import { confirmEmailAddress } from "../../core/use-cases/confirm-email-address.ts";
import { confirmationTokenFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { deliveries, deliveryQueue, emailConfirmations, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof confirmEmailAddress>) =>
  httpRoute("confirm-email-address", { params: { token: confirmationTokenFromPath } }).handle(
    async ({ params }) => {
      const { confirmation, held } = await confirmEmailAddress(deps(), {
        token: params.token,
        now: nowIso(),
      });
      return {
        status: 200,
        text: confirmationPage(confirmation, "done", held),
        headers: {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "content-security-policy": CONFIRMATION_PAGE_CSP,
        },
      };
    },
  );

export const handler = make(() => ({
  confirmations: emailConfirmations(),
  subscriptions: subscriptions(),
  deliveries: deliveries(),
  queue: deliveryQueue(),
}));
