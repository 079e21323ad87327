/**
 * GET /ffw/service/routemap/{awb}: the route map, for its owner or an XTD reader only (anyone else
 * gets the same 404 as for an unknown AWB). Answered from the stored JSON while it is exact.
 */

import type { AwbId } from "../carrier-messages/types.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import { currentRouteMapJson, readableView } from "./shared/read-access.ts";

export interface GetRouteMapDeps {
  routeMaps: RouteMapRepository;
}

export interface GetRouteMapInput {
  awb: AwbId;
  reader: ForwarderIdentity;
  now: string;
}

/** The route map as JSON text (already serialised: handlers pass it through untouched). */
export async function getRouteMap(deps: GetRouteMapDeps, input: GetRouteMapInput): Promise<string> {
  const view = await readableView(deps, input.awb, input.reader);
  return currentRouteMapJson(view, input.now, () => deps.routeMaps.get(input.awb));
}
