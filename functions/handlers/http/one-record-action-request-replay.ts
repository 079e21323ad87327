/** POST /onerecord/action-requests/{id}/deliveries/{deliveryId}/replay: one new attempt; 202 with the delivery. */
import { nowIso } from "../../adapters/clock.ts";
import { replayOneRecordDelivery } from "../../core/use-cases/one-record-subscriptions.ts";
import { oneRecordLinks } from "../../http/one-record.ts";
import { oneRecordError } from "../../http/one-record-subscriptions.ts";
import { deliveryIdFromPath, idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { deliveryBody } from "../../http/schemas/notifications.ts";
import { deliveries, deliveryQueue, httpPipeline, oneRecordSubscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof replayOneRecordDelivery>, pipeline?: Pipeline) =>
  httpRoute(
    "one-record-action-request-replay",
    { params: { id: idFromPath, deliveryId: deliveryIdFromPath } },
    pipeline,
  ).handle(async ({ identity, params, baseUrl }) => {
    const replayed = await replayOneRecordDelivery(deps(), { ...params, caller: identity, now: nowIso() });
    if (replayed === null)
      return oneRecordError(oneRecordLinks(baseUrl), 404, `No delivery ${params.deliveryId}.`);
    return { status: 202, body: { ...deliveryBody(replayed.delivery), ReplayAttempt: replayed.job.attempt } };
  });

export const handler = make(
  () => ({
    oneRecordSubscriptions: oneRecordSubscriptions(),
    deliveries: deliveries(),
    queue: deliveryQueue(),
  }),
  httpPipeline,
);
