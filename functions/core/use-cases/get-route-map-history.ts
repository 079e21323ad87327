/**
 * GET /ffw/service/routemap/{awb}/history: `{ RouteMap, Snapshots: [{ SnapshotDate, RouteMap }] }`,
 * newest snapshot first. One snapshot per change, as long as the repository keeps it (30 days from the
 * route map's creation; it never returns an expired one).
 */
import type { AwbId } from "../carrier-messages/types.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import { toPair } from "../time/station-time.ts";
import { currentRouteMapJson, readableView } from "./shared/read-access.ts";

export interface GetRouteMapHistoryDeps {
  routeMaps: RouteMapRepository;
}

export interface GetRouteMapHistoryInput {
  awb: AwbId;
  reader: ForwarderIdentity;
  now: string;
}

/** The history as JSON text, assembled from the stored route-map JSON without re-parsing it. */
export async function getRouteMapHistory(
  deps: GetRouteMapHistoryDeps,
  input: GetRouteMapHistoryInput,
): Promise<string> {
  const view = await readableView(deps, input.awb, input.reader);
  const [current, snapshots] = await Promise.all([
    currentRouteMapJson(view, input.now, () => deps.routeMaps.get(input.awb)),
    deps.routeMaps.snapshots(input.awb, input.now),
  ]);
  const items = snapshots.map(
    (s) =>
      `{"SnapshotDate":${JSON.stringify(toPair(view.origin, s.snapshotAt))},"RouteMap":${s.routeMapJson}}`,
  );
  return `{"RouteMap":${current},"Snapshots":[${items.join(",")}]}`;
}
