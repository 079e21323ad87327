/**
 * GET /ffw/service/routemap/{awb}/history?CurrentPage=&PageSize=: `{ RouteMap, Snapshots: [{
 * SnapshotDate, RouteMap }] }`, snapshots newest first, one page of them: without a query this is the
 * spec's answer for the newest 100 changes. One snapshot per change, as long as the repository keeps
 * it (30 days from the route map's creation; it never returns an expired one). A page holds at most
 * MAX_ROUTE_MAPS_PER_PAGE snapshots, so the answer stays far below Lambda's 6 MB response limit.
 * `StatusMessages` (our extension; the spec leaves the history's shape open) lists every kept status
 * message beyond the milestones (FOH, MAN, TFD, ...), newest first, on every page: at most
 * MAX_OTHER_STATUSES of them. Each snapshot and status message says where it came from (`Provenance`,
 * our extension: the message, its channel and receipt).
 */
import type { AwbId } from "../carrier-messages/types.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { RouteMapRecord, RouteMapRepository, RouteMapSnapshot } from "../ports/route-maps.ts";
import { renderProvenance } from "../route-map/provenance.ts";
import { renderStatusMessages } from "../route-map/status-messages.ts";
import { toPair } from "../time/station-time.ts";
import { currentRouteMapJson, MAX_ROUTE_MAPS_PER_PAGE, readableView } from "./shared/read-access.ts";

export interface GetRouteMapHistoryDeps {
  routeMaps: RouteMapRepository;
}

export interface GetRouteMapHistoryInput {
  awb: AwbId;
  reader: ForwarderIdentity;
  now: string;
  /** 1-based; the page size is capped at MAX_ROUTE_MAPS_PER_PAGE. */
  page: number;
  pageSize: number;
}

export interface RouteMapHistoryPage {
  /** The history as JSON text, assembled from the stored route-map JSON without re-parsing it. */
  json: string;
  totalItems: number;
  totalPages: number;
  currentPage: number;
  /** The page size used (the one asked for, capped). */
  pageSize: number;
}

export async function getRouteMapHistory(
  deps: GetRouteMapHistoryDeps,
  input: GetRouteMapHistoryInput,
): Promise<RouteMapHistoryPage> {
  const view = await readableView(deps, input.awb, input.reader);
  const pageSize = Math.min(input.pageSize, MAX_ROUTE_MAPS_PER_PAGE);
  let loading: Promise<RouteMapRecord | null> | undefined;
  const load = () => {
    loading ??= deps.routeMaps.get(input.awb);
    return loading;
  };
  const [current, page, record] = await Promise.all([
    currentRouteMapJson(view, input.now, load),
    deps.routeMaps.snapshotPage(input.awb, input.now, { page: input.page, pageSize }),
    load(),
  ]);
  const statusMessages = JSON.stringify(record ? renderStatusMessages(record.state) : []);
  // Provenance (our extension): the message that made the change, its receipt at the AWB origin.
  const provenance = (s: RouteMapSnapshot) =>
    JSON.stringify(s.provenance ? renderProvenance(s.provenance, view.awb.prefix, view.origin) : null);
  const items = page.items.map(
    (s) =>
      `{"SnapshotDate":${JSON.stringify(toPair(view.origin, s.snapshotAt))},"RouteMap":${s.routeMapJson},"Provenance":${provenance(s)}}`,
  );
  return {
    json: `{"RouteMap":${current},"Snapshots":[${items.join(",")}],"StatusMessages":${statusMessages}}`,
    totalItems: page.total,
    totalPages: Math.ceil(page.total / pageSize),
    currentPage: input.page,
    pageSize,
  };
}
