/** GET /carrier/requests: the calling carrier's pending status requests (channel Pull), oldest first. */
import { listCarrierRequests } from "../../core/use-cases/list-carrier-requests.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { CARRIER_ROUTES } from "../../http/routes/carriers.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { pulledRequestBody } from "../../http/schemas/status-requests.ts";
import { carrierInbox, httpPipeline } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = CARRIER_ROUTES["list-carrier-requests"];

export const make = (deps: () => DepsOf<typeof listCarrierRequests>, pipeline?: Pipeline) =>
  httpRoute("list-carrier-requests", { query: api.query }, pipeline).handle(async ({ identity, query }) => {
    const page = await listCarrierRequests(deps(), { carrierPrefix: identity.carrierPrefix, page: query });
    return { status: 200, body: pagedBody(page, query, pulledRequestBody) };
  });

export const handler = make(() => ({ carrierInbox: carrierInbox() }), httpPipeline);
