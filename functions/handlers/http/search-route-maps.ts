/**
 * POST /ffw/service/routemap?CurrentPage=&PageSize=: search the caller's route maps. Served from the
 * byReader index (see functions/core/use-cases/search-route-maps.ts for the limits).
 */
import * as v from "valibot";
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import type { SearchRange } from "../../core/ports/route-maps.ts";
import { normaliseUtc } from "../../core/time/station-time.ts";
import { parseSort, searchRouteMaps } from "../../core/use-cases/search-route-maps.ts";
import { httpHandler, issuesToFieldErrors } from "./kit.ts";
import { badRequest } from "./problem.ts";
import { asForwarder, mapped } from "./route-map-problems.ts";
import { PagingQuerySchema, RouteMapSearchSchema } from "./schemas.ts";

const deps = { routeMaps: dynamoRouteMapRepository() };

/** A date alone covers its whole UTC day; instants are normalised to "…Z" like the stored fields. */
function range(r: { From?: string; To?: string } | undefined): SearchRange | null {
  if (!r) return null;
  const from =
    r.From === undefined ? null : normaliseUtc(r.From.length === 10 ? `${r.From}T00:00:00Z` : r.From);
  const to = r.To === undefined ? null : normaliseUtc(r.To.length === 10 ? `${r.To}T23:59:59Z` : r.To);
  return { from, to };
}

export const handler = httpHandler(
  "search-route-maps",
  { body: RouteMapSearchSchema },
  async ({ identity, body, query }) => {
    const reader = asForwarder(identity);
    const paging = v.safeParse(PagingQuerySchema, query);
    if (!paging.success) throw badRequest("Invalid paging parameters.", issuesToFieldErrors(paging.issues));
    const sort = parseSort(body.Sort);
    if (!sort.ok)
      throw badRequest(`Invalid Sort: ${sort.message}.`, [{ field: "Sort", message: sort.message }]);
    const rawJson = await mapped(() =>
      searchRouteMaps(deps, {
        reader,
        filters: {
          creationDate: range(body.CreationDate),
          deliveryDate: range(body.DeliveryDate),
          receiptDate: range(body.ReceiptDate),
          airlinePrefix: body.AirlinePrefix ?? null,
          awbNumber: body.AwbNumber ?? null,
          origin: body.Origin ?? null,
          destination: body.Destination ?? null,
          statuses: body.Status ?? null,
        },
        sort: sort.keys,
        page: paging.output.CurrentPage,
        pageSize: paging.output.PageSize,
        now: nowIso(),
      }),
    );
    return { status: 200, rawJson };
  },
);
