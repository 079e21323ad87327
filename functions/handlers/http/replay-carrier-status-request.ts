/**
 * POST /support/carriers/{prefix}/requests/{id}/replay: queue a delivered or parked status request
 * again as one new attempt (DELIVERY_QUEUE_URL); 202 with the request.
 */
import { nowIso } from "../../adapters/clock.ts";
import { replayCarrierStatusRequest } from "../../core/use-cases/replay-carrier-status-request.ts";
import { prefixFromPath, statusRequestIdFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierStatusRequestBody } from "../../http/schemas/status-requests.ts";
import { deliveries, deliveryQueue, httpPipeline } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof replayCarrierStatusRequest>, pipeline?: Pipeline) =>
  httpRoute(
    "replay-carrier-status-request",
    {
      params: { prefix: prefixFromPath, id: statusRequestIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const { delivery, job } = await replayCarrierStatusRequest(deps(), {
      prefix: params.prefix,
      requestId: params.id,
      now: nowIso(),
    });
    return { status: 202, body: { ...carrierStatusRequestBody(delivery), ReplayAttempt: job.attempt } };
  });

export const handler = make(() => ({ deliveries: deliveries(), queue: deliveryQueue() }), httpPipeline);
