/**
 * POST /ffw/service/routemap/webhook/{id}/deliveries/{deliveryId}/replay: queue a delivered or parked
 * delivery of the caller's webhook again as one new attempt (DELIVERY_QUEUE_URL); 202 with the delivery.
 */
import { nowIso } from "../../adapters/clock.ts";
import { replayWebhookDelivery } from "../../core/use-cases/replay-webhook-delivery.ts";
import { httpHandler } from "./kit.ts";
import { deliveries, deliveryQueue, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { deliveryBody } from "./notification-schemas.ts";

export const handler = httpHandler("replay-webhook-delivery", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const { delivery, job } = await mappedNotification(() =>
    replayWebhookDelivery(
      { subscriptions: subscriptions(), deliveries: deliveries(), queue: deliveryQueue() },
      {
        forwarderId,
        id,
        deliveryId: params.deliveryId ?? "",
        now: nowIso(),
      },
    ),
  );
  return { status: 202, body: { ...deliveryBody(delivery), ReplayAttempt: job.attempt } };
});
