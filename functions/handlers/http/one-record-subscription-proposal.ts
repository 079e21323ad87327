/** GET /onerecord/subscriptions?topicType=&topic=: the Subscription we want from a carrier's server. */
import { proposedSubscription } from "../../core/one-record-server/subscriptions.ts";
import { CONTEXT } from "../../core/one-record-server/vocabulary.ts";
import { jsonLdHeaders, oneRecordLinks } from "../../http/one-record.ts";
import { oneRecordError } from "../../http/one-record-subscriptions.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ONE_RECORD_SUBSCRIPTION_ROUTES } from "../../http/routes/one-record-subscriptions.ts";
import { httpPipeline } from "../../wiring.ts";

const api = ONE_RECORD_SUBSCRIPTION_ROUTES["one-record-subscription-proposal"];

export const make = (pipeline?: Pipeline) =>
  httpRoute("one-record-subscription-proposal", { query: api.query }, pipeline).handle(
    async ({ query, baseUrl }) => {
      const links = oneRecordLinks(baseUrl);
      const proposal = proposedSubscription(links, query.topicType ?? null, query.topic ?? null);
      if (!proposal.ok) return oneRecordError(links, 400, proposal.detail);
      return { status: 200, body: { "@context": CONTEXT, ...proposal.value }, headers: jsonLdHeaders() };
    },
  );

export const handler = make(httpPipeline);
