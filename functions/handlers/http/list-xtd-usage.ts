/** GET /support/usage?month=YYYY-MM: every forwarder's XTD request count of the month. */
import { listXtdUsage } from "../../core/use-cases/list-xtd-usage.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { MonthPageQuerySchema } from "../../http/schemas/status-requests.ts";
import { httpPipeline, usageLedger } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listXtdUsage>, pipeline?: Pipeline) =>
  httpRoute("list-xtd-usage", { query: MonthPageQuerySchema }, pipeline).handle(async ({ query }) => {
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
