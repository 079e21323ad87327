/** POST /carrier/requests/{id}/ack: the calling carrier took the status request off its pull queue (204). */
import { ackCarrierRequest } from "../../core/use-cases/ack-carrier-request.ts";
import { statusRequestIdFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { carrierInbox } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof ackCarrierRequest>) =>
  httpRoute("ack-carrier-request", { params: { id: statusRequestIdFromPath } }).handle(
    async ({ identity, params }) => {
      await ackCarrierRequest(deps(), { carrierPrefix: identity.carrierPrefix, requestId: params.id });
      return { status: 204 };
    },
  );

export const handler = make(() => ({ carrierInbox: carrierInbox() }));
