/**
 * POST /ffw/service/routemap/eventconfignotifier/{id}/deliveries/{deliveryId}/replay: queue a delivered or parked
 * delivery of the caller's rule again as one new attempt (DELIVERY_QUEUE_URL); 202 with the delivery.
 */
import { nowIso } from "../../adapters/clock.ts";
import { replayRuleDelivery } from "../../core/use-cases/replay-rule-delivery.ts";
import { httpHandler } from "./kit.ts";
import { deliveries, deliveryQueue, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { deliveryBody } from "./notification-schemas.ts";

export const handler = httpHandler("replay-rule-delivery", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const { delivery, job } = await mappedNotification(() =>
    replayRuleDelivery(
      { subscriptions: subscriptions(), deliveries: deliveries(), queue: deliveryQueue() },
      { forwarderId, id, deliveryId: params.deliveryId ?? "", now: nowIso() },
    ),
  );
  return { status: 202, body: { ...deliveryBody(delivery), ReplayAttempt: job.attempt } };
});
