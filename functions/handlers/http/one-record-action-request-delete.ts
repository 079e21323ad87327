/** DELETE /onerecord/action-requests/{id}: revokes the caller's subscription; 204. */
import { nowIso } from "../../adapters/clock.ts";
import { revokeOneRecordActionRequest } from "../../core/use-cases/one-record-subscriptions.ts";
import { oneRecordLinks } from "../../http/one-record.ts";
import { subscriptionAnswer } from "../../http/one-record-subscriptions.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, oneRecordSubscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof revokeOneRecordActionRequest>, pipeline?: Pipeline) =>
  httpRoute("one-record-action-request-delete", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params, baseUrl }) =>
      subscriptionAnswer(
        oneRecordLinks(baseUrl),
        await revokeOneRecordActionRequest(deps(), { id: params.id, caller: identity, now: nowIso() }),
      ),
  );

export const handler = make(() => ({ oneRecordSubscriptions: oneRecordSubscriptions() }), httpPipeline);
