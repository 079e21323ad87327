/** GET /support/usage?month=YYYY-MM: every forwarder's XTD request count of the month. */
import { listXtdUsage } from "../../core/use-cases/list-xtd-usage.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { httpPipeline, usageLedger } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["list-xtd-usage"];

export const make = (deps: () => DepsOf<typeof listXtdUsage>, pipeline?: Pipeline) =>
  httpRoute("list-xtd-usage", { query: api.query }, pipeline).handle(async ({ query }) => {
    const usage = await listXtdUsage(deps(), { month: query.month, page: query.page });
    return {
      status: 200,
      body: {
        Month: query.month,
        XtdRequests: usage.total,
        ...pagedBody(usage.forwarders, query.page, (forwarder) => ({
          ForwarderIdentifier: forwarder.forwarderId,
          XtdRequests: forwarder.count,
        })),
      },
    };
  });

export const handler = make(() => ({ usage: usageLedger() }), httpPipeline);
