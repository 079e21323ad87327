/** GET /support/carriers/{prefix}/requests: the carrier's status requests, newest first, with their attempt log. */
import { listCarrierStatusRequests } from "../../core/use-cases/list-carrier-status-requests.ts";
import { prefixFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { carrierStatusRequestBody } from "../../http/schemas/status-requests.ts";
import { carriers, deliveries, httpPipeline } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["list-carrier-status-requests"];

export const make = (deps: () => DepsOf<typeof listCarrierStatusRequests>, pipeline?: Pipeline) =>
  httpRoute(
    "list-carrier-status-requests",
    {
      params: { prefix: prefixFromPath },
      query: api.query,
    },
    pipeline,
  ).handle(async ({ params, query }) => {
    const page = await listCarrierStatusRequests(deps(), { prefix: params.prefix, page: query });
    return { status: 200, body: pagedBody(page, query, carrierStatusRequestBody) };
  });

export const handler = make(() => ({ carriers: carriers(), deliveries: deliveries() }), httpPipeline);
