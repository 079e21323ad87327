/**
 * Request shapes to use-case input where it takes more than a line: the caller as a subscriber, the
 * search body's filters and sort, and support's carrier settings (API casing to the planner's). Shape
 * only: what the values mean is the use cases' business.
 */
import type { CarrierPlanningSettings } from "../core/carriers.ts";
import type { ForwarderIdentity } from "../core/identity.ts";
import type { SubscriberIdentity } from "../core/notifications/index.ts";
import type { PageRequest } from "../core/ports/notifications.ts";
import type { SearchRange } from "../core/ports/route-maps.ts";
import type { PlanningOffsets } from "../core/route-map/planning-config.ts";
import { normaliseUtc } from "../core/time/station-time.ts";
import type { CarrierSettingsInput } from "../core/use-cases/put-carrier.ts";
import { parseSort, type SearchRouteMapsInput } from "../core/use-cases/search-route-maps.ts";
import { badRequest } from "./problems.ts";
import type { CarrierSettings as CarrierSettingsBody } from "./schemas/carriers.ts";
import type { RouteMapSearch } from "./schemas/route-maps.ts";

/** The caller as the owner of what it creates (identity from its token, never from the body). */
export function subscriber(forwarder: ForwarderIdentity): SubscriberIdentity {
  return {
    forwarderId: forwarder.forwarderId,
    agentCode: forwarder.agentCode,
    agentCass: forwarder.agentCass,
    agentStation: forwarder.agentStation,
  };
}

/**
 * A date alone covers its whole UTC day; instants are normalised to "…Z" like the stored fields. A To
 * before its From is a 400 naming `<name>.To` (it could only ever match nothing).
 */
function range(name: string, r: { From?: string; To?: string } | undefined): SearchRange | null {
  if (!r) return null;
  const from =
    r.From === undefined ? null : normaliseUtc(r.From.length === 10 ? `${r.From}T00:00:00Z` : r.From);
  const to = r.To === undefined ? null : normaliseUtc(r.To.length === 10 ? `${r.To}T23:59:59Z` : r.To);
  if (from !== null && to !== null && to < from) {
    const message = `must not be before ${name}.From`;
    throw badRequest(`Invalid ${name}: To (${r.To}) is before From (${r.From}).`, [
      { field: `${name}.To`, message },
    ]);
  }
  return { from, to };
}

/** The search body and page as the use case takes them; an unreadable Sort is a 400 naming Sort. */
export function searchOf(
  body: RouteMapSearch,
  page: PageRequest,
): Pick<SearchRouteMapsInput, "filters" | "sort" | "page" | "pageSize" | "cursor"> {
  const sort = parseSort(body.Sort);
  if (!sort.ok)
    throw badRequest(`Invalid Sort: ${sort.message}.`, [{ field: "Sort", message: sort.message }]);
  return {
    filters: {
      creationDate: range("CreationDate", body.CreationDate),
      deliveryDate: range("DeliveryDate", body.DeliveryDate),
      receiptDate: range("ReceiptDate", body.ReceiptDate),
      airlinePrefix: body.AirlinePrefix ?? null,
      awbNumber: body.AwbNumber ?? null,
      origin: body.Origin ?? null,
      destination: body.Destination ?? null,
      statuses: body.Status ?? null,
    },
    sort: sort.keys,
    page: page.page,
    pageSize: page.pageSize,
    cursor: body.Cursor ?? null,
  };
}

/** API casing (FwbBeforeFirstStd) to the planner's (fwbBeforeFirstStd); absent offsets keep defaults. */
function planningOf(planning: CarrierSettingsBody["Planning"]): CarrierPlanningSettings | null {
  if (!planning) return null;
  const offsets: Partial<PlanningOffsets> = {};
  for (const [name, minutes] of Object.entries(planning.Offsets ?? {})) {
    if (minutes !== undefined)
      offsets[`${name[0]?.toLowerCase()}${name.slice(1)}` as keyof PlanningOffsets] = minutes;
  }
  return {
    offsets,
    roadFeederFlightNumbers: (planning.RoadFeederFlightNumbers ?? []).map((rule) => ({
      carrierCode: rule.CarrierCode ?? null,
      pattern: rule.Pattern,
    })),
  };
}

/** Support's PUT body as the carrier settings the use case stores. */
export function carrierSettingsOf(body: CarrierSettingsBody): CarrierSettingsInput {
  return {
    name: body.Name,
    qualityProgram: body.QualityProgram,
    xtd: body.Xtd,
    planning: planningOf(body.Planning),
    ...(body.InboundSenders ? { inboundSenders: body.InboundSenders } : {}),
    ...(body.OneRecord
      ? { oneRecord: { serverUrl: body.OneRecord.ServerUrl, token: body.OneRecord.Token } }
      : {}),
    ...(body.StatusRequests
      ? {
          statusRequests: {
            channel: body.StatusRequests.Channel,
            format: body.StatusRequests.Format,
            ...(body.StatusRequests.Channel === "Url" ? { url: body.StatusRequests.Url } : {}),
            ...(body.StatusRequests.Channel === "Email" ? { email: body.StatusRequests.Email } : {}),
          },
        }
      : {}),
  };
}
