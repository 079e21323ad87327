/**
 * POST /ffw/service/routemap/webhook/{id}/deliveries/{deliveryId}/replay: queue a delivered or parked
 * delivery of the caller's webhook again as one new attempt (DELIVERY_QUEUE_URL); 202 with the delivery.
 */
import { nowIso } from "../../adapters/clock.ts";
import { replayWebhookDelivery } from "../../core/use-cases/replay-webhook-delivery.ts";
import { deliveryIdFromPath, idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { deliveryBody } from "../../http/schemas/notifications.ts";
import { deliveries, deliveryQueue, httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof replayWebhookDelivery>, pipeline?: Pipeline) =>
  httpRoute(
    "replay-webhook-delivery",
    { params: { id: idFromPath, deliveryId: deliveryIdFromPath } },
    pipeline,
  ).handle(async ({ identity, params }) => {
    const { forwarderId } = identity;
    const { delivery, job } = await replayWebhookDelivery(deps(), {
      forwarderId,
      ...params,
      now: nowIso(),
    });
    return { status: 202, body: { ...deliveryBody(delivery), ReplayAttempt: job.attempt } };
  });

export const handler = make(
  () => ({
    subscriptions: subscriptions(),
    deliveries: deliveries(),
    queue: deliveryQueue(),
  }),
  httpPipeline,
);
