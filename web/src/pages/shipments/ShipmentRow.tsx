/**
 * One shipment of the list: its AWB (the link to its route map), status in words, route, legs,
 * exceptions, what it expects next and when it was created. On a phone the row is a card: each cell
 * says its column's name (data-label), so nothing needs the table's header to be read.
 */
import { formatAwb, formatLocal, formatUtc } from "../../lib/format.ts";
import { routeMapHash } from "../../lib/hash-route.ts";
import {
  awbOf,
  exceptionSummary,
  nextMilestone,
  ROUTE_MAP_STATUS_WORDS,
  type RouteMap,
  type RouteMapStatus,
  type ZoneLabel,
} from "../../lib/route-map.ts";
import { legsText } from "../../lib/shipments-csv.ts";

/** The next milestone in words: "Departed (DEP) at FRA · 14:25 CET, 14 Mar", Missing said as such. */
function NextMilestoneCell({ map, zoneLabel }: { map: RouteMap; zoneLabel: ZoneLabel }) {
  const next = nextMilestone(map);
  if (!next) return <span class="muted">{map.Status === "Cancelled" ? "cancelled" : "all reported"}</span>;
  const overdue = next.milestone.Status === "Missing";
  return (
    <span class="next-milestone">
      <span class="next-what">{next.label}</span> at {next.station}
      {next.planned ? (
        <>
          {" · "}
          <time dateTime={next.planned.Utc}>
            {formatLocal(next.planned, zoneLabel(next.station, next.planned))}
          </time>
        </>
      ) : null}
      {overdue ? (
        <>
          {" "}
          <span class="chip chip-missing">Missing</span>
        </>
      ) : null}
    </span>
  );
}

export function ShipmentRow({ map, zoneLabel }: { map: RouteMap; zoneLabel: ZoneLabel }) {
  const awb = awbOf(map);
  const summary = exceptionSummary(map);
  return (
    <tr>
      <th scope="row" data-label="AWB">
        <a href={routeMapHash(awb)}>{formatAwb(awb)}</a>
      </th>
      <td data-label="Status">
        <StatusChip status={map.Status} />
      </td>
      <td data-label="Origin">{map.Shipment.Routing.Origin}</td>
      <td data-label="Destination">{map.Shipment.Routing.Destination}</td>
      <td data-label="Legs">{legsText(map) || "—"}</td>
      <td data-label="Exceptions">
        {summary ? <span class="exception-text">{summary}</span> : <span class="muted">none</span>}
      </td>
      <td data-label="Next milestone">
        <NextMilestoneCell map={map} zoneLabel={zoneLabel} />
      </td>
      <td data-label="Created">
        <time dateTime={map.CreationDate.Utc}>{formatUtc(map.CreationDate.Utc)}</time>
      </td>
    </tr>
  );
}

export function StatusChip({ status }: { status: RouteMapStatus }) {
  return (
    <span class={`chip chip-shipment chip-${status.toLowerCase()}`}>
      {ROUTE_MAP_STATUS_WORDS[status] ?? status}
    </span>
  );
}
