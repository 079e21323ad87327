/**
 * A route map as a timeline: origin cycle, one section per leg (trucks marked), destination cycle.
 * Each milestone shows its name and code ("Departed (DEP)"), its station-local planned and actual time
 * with the station's zone, its status as colour and text, the verdict in the e-mails' words and the
 * pieces reported. Used signed in and on the shared page.
 */
import { formatLocal, formatUtc } from "../lib/format.ts";
import { milestoneSourceKey, type Provenance, provenanceText } from "../lib/provenance.ts";
import type { DateTimePair, Flight, Milestone, RouteMap, TimelineSection } from "../lib/route-map.ts";
import {
  milestoneLabel,
  milestoneVerdictText,
  ROUTE_MAP_STATUS_WORDS,
  timelineSections,
} from "../lib/route-map.ts";
import type { ZoneLabel } from "../zones-loader.ts";

interface Props {
  map: RouteMap;
  zoneLabel: ZoneLabel;
  /** Where each actual came from (lib/provenance.ts), by milestoneSourceKey; absent on the shared page. */
  sources?: Map<string, Provenance>;
}

function When({
  label,
  pair,
  station,
  zoneLabel,
}: {
  label: string;
  pair: DateTimePair | null;
  station: string;
  zoneLabel: ZoneLabel;
}) {
  return (
    <span class="when">
      <span class="when-label">{label}</span>{" "}
      {pair ? (
        <time dateTime={pair.Utc}>{formatLocal(pair, zoneLabel(station, pair))}</time>
      ) : (
        <span class="none">—</span>
      )}
    </span>
  );
}

function MilestoneItem({
  milestone,
  flight,
  total,
  zoneLabel,
  source,
  origin,
}: {
  milestone: Milestone;
  flight: Flight | null;
  total: number;
  zoneLabel: ZoneLabel;
  source?: Provenance | undefined;
  /** The AWB origin: a receipt time is given there. */
  origin: string;
}) {
  const said = milestoneVerdictText(milestone, flight);
  const status = milestone.Status;
  return (
    <li class={`milestone status-${status.toLowerCase()}`}>
      <div class="milestone-head">
        <span class="code">{milestoneLabel(milestone.Name)}</span>{" "}
        <span class="station">{milestone.Station}</span>{" "}
        <span class={`chip chip-${status.toLowerCase()}`}>{status}</span>
        {said ? <span class="verdict"> {said}</span> : null}
        {!said && status === "Missing" ? <span class="verdict"> not reported</span> : null}
        {milestone.IsReplanned ? <span class="flag"> Replanned</span> : null}
      </div>
      <div class="milestone-times">
        <When
          label="Planned"
          pair={milestone.PlannedDateTime}
          station={milestone.Station}
          zoneLabel={zoneLabel}
        />
        {" · "}
        <When
          label="Actual"
          pair={milestone.ActualDateTime}
          station={milestone.Station}
          zoneLabel={zoneLabel}
        />
        {milestone.ActualDateTime || milestone.ActualNoOfPieces > 0 ? (
          <span class="pieces">
            {" · "}
            {milestone.ActualNoOfPieces} of {total} pieces
          </span>
        ) : null}
      </div>
      {source && milestone.ActualDateTime ? (
        <div class="milestone-source muted">
          {provenanceText(source, zoneLabel(origin, source.ReceivedAt), milestone.ActualDateTime)}
        </div>
      ) : null}
    </li>
  );
}

function LegTimes({ section, zoneLabel }: { section: TimelineSection; zoneLabel: ZoneLabel }) {
  const info = section.flight?.FlightInfo;
  if (!info) return null;
  const { Origin, Destination } = info.Routing;
  return (
    <dl class="leg-times">
      <div>
        <dt>Scheduled</dt>
        <dd>
          <When label="dep" pair={info.Scheduled.DepartureDateTime} station={Origin} zoneLabel={zoneLabel} />
          {" · "}
          <When
            label="arr"
            pair={info.Scheduled.ArrivalDateTime}
            station={Destination}
            zoneLabel={zoneLabel}
          />
        </dd>
      </div>
      <div>
        <dt>Actual</dt>
        <dd>
          <When
            label="dep"
            pair={info.Actual?.DepartureDateTime ?? null}
            station={Origin}
            zoneLabel={zoneLabel}
          />
          {" · "}
          <When
            label="arr"
            pair={info.Actual?.ArrivalDateTime ?? null}
            station={Destination}
            zoneLabel={zoneLabel}
          />
        </dd>
      </div>
    </dl>
  );
}

export function Timeline({ map, zoneLabel, sources }: Props) {
  const total = map.Shipment.Total.NoOfPieces;
  return (
    <ol class="timeline">
      {timelineSections(map).map((section) => (
        <li
          key={section.key}
          class={`leg${section.flight?.FlightInfo.isRoadFeederService ? " leg-truck" : ""}`}
        >
          <section aria-labelledby={`leg-${section.key}`}>
            <h2 id={`leg-${section.key}`} class="leg-title">
              {section.title}
              {section.replanned ? <span class="flag"> (replanned)</span> : null}
            </h2>
            <LegTimes section={section} zoneLabel={zoneLabel} />
            {section.milestones.length > 0 ? (
              <ul class="milestones">
                {section.milestones.map((milestone) => (
                  <MilestoneItem
                    key={milestone.Name}
                    milestone={milestone}
                    flight={section.flight}
                    total={total}
                    zoneLabel={zoneLabel}
                    source={sources?.get(milestoneSourceKey(section.key, milestone.Name))}
                    origin={map.Shipment.Routing.Origin}
                  />
                ))}
              </ul>
            ) : (
              <p class="muted">No milestones.</p>
            )}
          </section>
        </li>
      ))}
    </ol>
  );
}

/** The summary above a timeline: status chip, route, pieces, last update. */
export function RouteMapSummary({ map }: { map: RouteMap }) {
  const total = map.Shipment.Total;
  return (
    <p class="summary">
      <span class={`chip chip-shipment chip-${map.Status.toLowerCase()}`}>
        {ROUTE_MAP_STATUS_WORDS[map.Status] ?? map.Status}
      </span>{" "}
      {map.Shipment.Routing.Origin} → {map.Shipment.Routing.Destination} · {total.NoOfPieces} pieces
      {total.Weight !== null ? ` · ${total.Weight} ${total.WeightCode ?? ""}`.trimEnd() : ""}
      {map.IsReplanned || map.RoutingIsReplanned ? <span class="flag"> · Replanned</span> : null}
      <span class="muted"> · last update {formatUtc(map.LastUpdate)}</span>
    </p>
  );
}
