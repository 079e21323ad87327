/** GET /onerecord/action-requests/{id}: the caller's SubscriptionRequest. */
import { getOneRecordActionRequest } from "../../core/use-cases/one-record-subscriptions.ts";
import { oneRecordLinks } from "../../http/one-record.ts";
import { subscriptionAnswer } from "../../http/one-record-subscriptions.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, oneRecordSubscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getOneRecordActionRequest>, pipeline?: Pipeline) =>
  httpRoute("one-record-action-request-get", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params, baseUrl }) => {
      const links = oneRecordLinks(baseUrl);
      const input = { id: params.id, caller: identity, links };
      return subscriptionAnswer(links, await getOneRecordActionRequest(deps(), input));
    },
  );

export const handler = make(() => ({ oneRecordSubscriptions: oneRecordSubscriptions() }), httpPipeline);
