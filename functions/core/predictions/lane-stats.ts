/**
 * Lane statistics as stored: one item per carrier and per lane (a leg's carrier x origin x destination,
 * or a shipment's), each a flat map of counters that only ever add up, so a store applies a learnt
 * route map with one atomic "add" per item whatever the order:
 *
 * - `<milestone>|b|<bin>`: samples of the lateness a milestone added, by histogram bin (the shape);
 * - `<milestone>|<level>|n` and `|s`: count and sum (minutes, clipped) over the lane (`all`) and at
 *   each finer level (a flight, a weekday, an hour of day): how far that level sits from the lane.
 *
 * Reading a milestone's distribution shrinks each level toward the one above it by its sample count
 * (n / (n + prior)): the carrier toward the plan, the lane toward the carrier, each finer level's
 * shift toward none. Few samples: the plan; many: the lane's own history.
 */
import { addedLateness, type JourneyMilestone } from "./journey.ts";
import { binOf, histogramCount, meanOf, PLAN_POINTS, type Points, shift, shrunkPoints } from "./lateness.ts";

/** Counters of one stored item by attribute name. */
export type LaneCounters = Readonly<Record<string, number>>;
/** Items by key (`CAR|LH`, `LEG|LH|FRA|JFK`, `SHP|020|FRA|JFK`); an absent item has no samples. */
export type LaneStats = ReadonlyMap<string, LaneCounters>;

/** Samples a level needs to weigh as much as everything above it. */
export const SHAPE_PRIOR = 8;
export const SHIFT_PRIOR = 6;
/** Lateness beyond this (minutes) counts as this in a level's mean, so one disruption does not move a flight. */
const CLIP_MINUTES = 360;

/** Additions to stored items: item key -> attribute -> amount. */
export type LaneIncrements = Map<string, Map<string, number>>;

function add(increments: LaneIncrements, item: string, attribute: string, amount: number): void {
  const counters = increments.get(item) ?? new Map<string, number>();
  counters.set(attribute, (counters.get(attribute) ?? 0) + amount);
  increments.set(item, counters);
}

/**
 * What a completed journey teaches: for every milestone whose added lateness is known, its bin in
 * the carrier's and the lane's histogram and its count and (clipped, whole-minute) sum at each finer level.
 */
export function learnJourney(journey: readonly JourneyMilestone[]): LaneIncrements {
  const increments: LaneIncrements = new Map();
  journey.forEach((m, index) => {
    const lateness = addedLateness(journey, index);
    if (lateness === null) return;
    const bin = binOf(lateness);
    add(increments, m.lanes.carrierItem, `${m.name}|b|${bin}`, 1);
    add(increments, m.lanes.laneItem, `${m.name}|b|${bin}`, 1);
    const clipped = Math.round(Math.max(-CLIP_MINUTES, Math.min(CLIP_MINUTES, lateness)));
    for (const level of ["all", ...m.lanes.levels]) {
      add(increments, m.lanes.laneItem, `${m.name}|${level}|n`, 1);
      add(increments, m.lanes.laneItem, `${m.name}|${level}|s`, clipped);
    }
  });
  return increments;
}

/** Items a journey's predictions read. */
export function laneItemsOf(journey: readonly JourneyMilestone[]): string[] {
  return [...new Set(journey.flatMap((m) => [m.lanes.carrierItem, m.lanes.laneItem]))];
}

function histogramOf(counters: LaneCounters | undefined, milestone: string): Record<number, number> {
  const histogram: Record<number, number> = {};
  if (!counters) return histogram;
  const prefix = `${milestone}|b|`;
  for (const [attribute, count] of Object.entries(counters)) {
    if (attribute.startsWith(prefix)) histogram[Number(attribute.slice(prefix.length))] = count;
  }
  return histogram;
}

/** What a step's distribution was learnt from: the finest level with samples, and how many. */
export interface StepBasis {
  /** null: no samples anywhere, the plan alone. */
  lane: string | null;
  samples: number;
}

/** The distribution of the lateness milestone `m` adds (minutes), shrunk level by level, and its basis. */
export function stepDistribution(
  m: JourneyMilestone,
  stats: LaneStats,
): { points: Points; basis: StepBasis } {
  const carrierHistogram = histogramOf(stats.get(m.lanes.carrierItem), m.name);
  const laneCounters = stats.get(m.lanes.laneItem);
  const laneHistogram = histogramOf(laneCounters, m.name);
  const carrierN = histogramCount(carrierHistogram);
  const laneN = histogramCount(laneHistogram);
  const carrierPoints = shrunkPoints(carrierHistogram, PLAN_POINTS, SHAPE_PRIOR);
  const lanePoints = shrunkPoints(laneHistogram, carrierPoints, SHAPE_PRIOR);
  let basis: StepBasis =
    laneN > 0
      ? { lane: m.lanes.labels[0] ?? null, samples: laneN }
      : carrierN > 0
        ? { lane: m.lanes.carrierItem.split("|")[1] ?? null, samples: carrierN }
        : { lane: null, samples: 0 };
  // Each finer level's effect is its mean's distance from the lane's (clipped) mean, shrunk by its
  // count; the effects add up (a flight's and a weekday's).
  const countOf = (level: string) => laneCounters?.[`${m.name}|${level}|n`] ?? 0;
  const meanAt = (level: string) => (laneCounters?.[`${m.name}|${level}|s`] ?? 0) / countOf(level);
  const laneMean = countOf("all") > 0 ? meanAt("all") : meanOf(lanePoints);
  let offset = 0;
  m.lanes.levels.forEach((level, i) => {
    const n = countOf(level);
    if (n <= 0) return;
    offset += (n / (n + SHIFT_PRIOR)) * (meanAt(level) - laneMean);
    basis = { lane: m.lanes.labels[i + 1] ?? basis.lane, samples: n };
  });
  return { points: offset === 0 ? lanePoints : shift(lanePoints, offset), basis };
}
