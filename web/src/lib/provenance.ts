/**
 * Where each actual of a route map came from, read from its history: the snapshot that first showed
 * the actual names the message that set it (Provenance, the service's documented extension), and
 * the timeline says so: "reported by FSU/15 by e-mail, 14:03 CET". Pure, unit tested.
 */
import type {
  DateTimePair,
  Provenance,
  RouteMap,
  RouteMapHistory,
} from "../../../functions/core/route-map/spec-types.ts";
import { formatLocal } from "./format.ts";
import { timelineSections } from "./route-map.ts";

export type { Provenance };

/** The key of a milestone in a timeline: its section's key and its name. */
export const milestoneSourceKey = (sectionKey: string, name: string) => `${sectionKey} ${name}`;

function actuals(map: RouteMap): Map<string, string> {
  const found = new Map<string, string>();
  for (const section of timelineSections(map))
    for (const milestone of section.milestones)
      if (milestone.ActualDateTime)
        found.set(milestoneSourceKey(section.key, milestone.Name), milestone.ActualDateTime.Utc);
  return found;
}

/**
 * For each milestone of `shown` with an actual, the provenance of the oldest snapshot that showed
 * that very actual (snapshots are newest first; one not on the loaded page, or stored before
 * provenance was kept, gives none).
 */
export function actualSources(history: RouteMapHistory, shown: RouteMap): Map<string, Provenance> {
  const wanted = actuals(shown);
  const sources = new Map<string, Provenance>();
  for (const snapshot of [...history.Snapshots].reverse()) {
    if (!snapshot.Provenance) continue;
    for (const [key, utc] of actuals(snapshot.RouteMap))
      if (!sources.has(key) && wanted.get(key) === utc) sources.set(key, snapshot.Provenance);
  }
  return sources;
}

const CHANNELS: Record<Provenance["Channel"], string> = {
  Api: "by API",
  Email: "by e-mail",
  OneRecord: "by ONE Record",
};

/**
 * "reported by FSU/15 by e-mail, 14:03 CET": the message, its channel and when it was received, in
 * the zone `zone` labels (the receipt pair is at the AWB origin); says when the message gave no time.
 */
export function provenanceText(source: Provenance, zone: string, actual: DateTimePair | null): string {
  const received = formatLocal(source.ReceivedAt, zone, actual?.Local);
  const answer = source.StatusRequestReply ? " (answer to a status request)" : "";
  const noTime = source.TimeGiven === false ? "; no time given, the receipt time is shown" : "";
  return `reported by ${source.Message} ${CHANNELS[source.Channel]}${answer}, ${received}${noTime}`;
}
