/** GET /ffw/service/routemap/usage?month=YYYY-MM: the caller's XTD usage ledger of the month. */
import { getXtdUsage } from "../../core/use-cases/get-xtd-usage.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ROUTE_MAP_ROUTES } from "../../http/routes/route-maps.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { usageEntryBody } from "../../http/schemas/status-requests.ts";
import { httpPipeline, usageLedger } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = ROUTE_MAP_ROUTES["get-xtd-usage"];

export const make = (deps: () => DepsOf<typeof getXtdUsage>, pipeline?: Pipeline) =>
  httpRoute("get-xtd-usage", { query: api.query }, pipeline).handle(async ({ identity, query }) => {
    const { forwarderId } = identity;
    const usage = await getXtdUsage(deps(), { forwarderId, month: query.month, page: query.page });
    return {
      status: 200,
      body: {
        ForwarderIdentifier: forwarderId,
        Month: query.month,
        XtdRequests: usage.count,
        ...pagedBody(usage.entries, query.page, usageEntryBody),
      },
    };
  });

export const handler = make(() => ({ usage: usageLedger() }), httpPipeline);
