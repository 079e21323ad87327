/**
 * Who may read a route map, and answering from the stored JSON while it is still exact: what the
 * read use cases (get, history, search, trigger) share.
 */

import type { AgentRef, AwbId } from "../../carrier-messages/types.ts";
import { RouteMapNotFoundError } from "../../errors.ts";
import type { ForwarderIdentity } from "../../identity.ts";
import type { RouteMapRecord, RouteMapRepository, RouteMapView } from "../../ports/route-maps.ts";
import { renderRouteMap } from "../../route-map/render.ts";
import { normaliseUtc } from "../../time/station-time.ts";

/**
 * Route maps one response may carry (history snapshots, search items), bounding its size by
 * construction: a route map has at most 12 legs and only fixed-width values, so its JSON stays below
 * MAX_ROUTE_MAP_JSON_BYTES (a fully reported 12-leg map is about 21 KB), and a page of
 * (150 + 1) x 28 KB is about 4.3 MB, below Lambda's 6 MB response limit with room for the envelope.
 */
export const MAX_ROUTE_MAPS_PER_PAGE = 150;
export const MAX_ROUTE_MAP_JSON_BYTES = 28_000;

/** The agent (code and CASS) is the one named. */
export function sameAgent(a: AgentRef | null, b: { agentCode: string; agentCass: string }): boolean {
  return a !== null && a.code === b.agentCode && a.cass === b.agentCass;
}

/** DESIGN.md section 9 Ownership: the FWB agent, or a forwarder with an XTD grant. */
export function mayRead(view: Pick<RouteMapView, "ownerAgent" | "xtdForwarders">, reader: ForwarderIdentity) {
  return sameAgent(view.ownerAgent, reader) || view.xtdForwarders.includes(reader.forwarderId);
}

/**
 * A reader's keys on the byReader index, in this order: the AWBs its agent (code + CASS) owns, then
 * those its forwarder id was granted by XTD.
 */
export function readerKeysOf(reader: {
  agentCode: string;
  agentCass: string;
  forwarderId: string;
}): string[] {
  return [`AGT#${reader.agentCode}#${reader.agentCass}`, `FWD#${reader.forwarderId}`];
}

/** The route map as of `now`: the stored JSON while exact (no parse, no render), else re-rendered. */
export async function currentRouteMapJson(
  view: RouteMapView,
  now: string,
  load: () => Promise<RouteMapRecord | null>,
): Promise<string> {
  if (view.staleAfter === null || normaliseUtc(now) <= view.staleAfter) return view.routeMapJson;
  const record = await load();
  return record ? JSON.stringify(renderRouteMap(record.state, now)) : view.routeMapJson;
}

/** The view of an AWB the reader may read; unknown and not-yours are the same 404 (existence never leaks). */
export async function readableView(
  deps: { routeMaps: Pick<RouteMapRepository, "getView"> },
  awb: AwbId,
  reader: ForwarderIdentity,
): Promise<RouteMapView> {
  const view = await deps.routeMaps.getView(awb);
  if (!view || !mayRead(view, reader)) throw new RouteMapNotFoundError(awb);
  return view;
}
