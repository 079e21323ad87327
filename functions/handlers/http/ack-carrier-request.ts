/** POST /carrier/requests/{id}/ack: the calling carrier took the status request off its pull queue (204). */
import { ackCarrierRequest } from "../../core/use-cases/ack-carrier-request.ts";
import { statusRequestIdFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierInbox, httpPipeline } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof ackCarrierRequest>, pipeline?: Pipeline) =>
  httpRoute("ack-carrier-request", { params: { id: statusRequestIdFromPath } }, pipeline).handle(
    async ({ identity, params }) => {
      await ackCarrierRequest(deps(), { carrierPrefix: identity.carrierPrefix, requestId: params.id });
      return { status: 204 };
    },
  );

export const handler = make(() => ({ carrierInbox: carrierInbox() }), httpPipeline);
