/**
 * Lateness in minutes and its distributions: a fixed, signed histogram (fine near the plan, coarse in
 * the tails, so a lane's whole history fits in a few hundred bytes and counts add up commutatively),
 * and the equal-mass quantile points predictions are computed on (mixing, shifting, adding two
 * independent steps of a journey, conditioning on "not happened yet").
 */

/** Upper edges (minutes) of the histogram's bins on each side of the plan; the last bin is open. */
const EDGES = [
  5, 10, 15, 20, 30, 45, 60, 90, 120, 150, 180, 240, 300, 360, 480, 600, 720, 960, 1200, 1440, 1800, 2160,
  2880, 3600, 4320, 5760, 7200, 10080,
] as const;
const SIDE = EDGES.length;
/** Bins in all: SIDE below the plan, SIDE from the plan on. */
export const BIN_COUNT = 2 * SIDE;

/** Equal-mass points a distribution is carried as (enough for P50/P90 to a few minutes). */
export const POINTS = 40;

/** A histogram's counts by bin index (sparse: absent = 0). */
export type Histogram = Readonly<Record<number, number>>;

/** Equal-mass points of a distribution of minutes, ascending, POINTS long. */
export type Points = readonly number[];

/** [low, high) of bin `index` in minutes; the outermost bins are given a finite width for interpolation. */
function binBounds(index: number): [number, number] {
  if (index >= SIDE) {
    const i = index - SIDE;
    const low = i === 0 ? 0 : (EDGES[i - 1] ?? 0);
    return [low, EDGES[i] ?? low];
  }
  const i = SIDE - 1 - index;
  const high = i === 0 ? 0 : (EDGES[i - 1] ?? 0);
  return [-(EDGES[i] ?? high), -high];
}

/** The bin of a lateness (values beyond the last edge land in the outermost bin). */
export function binOf(minutes: number): number {
  const magnitude = Math.abs(minutes);
  let i = EDGES.findIndex((edge) => magnitude < edge);
  if (i < 0) i = SIDE - 1;
  return minutes >= 0 ? SIDE + i : SIDE - 1 - i;
}

export function histogramCount(histogram: Histogram): number {
  let n = 0;
  for (const count of Object.values(histogram)) n += count;
  return n;
}

/**
 * Points of a mixture: `histogram` (n samples) weighted n / (n + prior), `parent` the rest. Inside a
 * bin the mass is spread evenly (the bin's bounds interpolate).
 */
export function shrunkPoints(histogram: Histogram, parent: Points, prior: number): Points {
  const n = histogramCount(histogram);
  if (n === 0) return parent;
  const own = n / (n + prior);
  // Mass by bin for the histogram part, and the parent's points as atoms of equal mass.
  const atoms: Array<{ low: number; high: number; mass: number }> = [];
  for (const [key, count] of Object.entries(histogram)) {
    if (count <= 0) continue;
    const [low, high] = binBounds(Number(key));
    atoms.push({ low, high, mass: (own * count) / n });
  }
  for (const point of parent) atoms.push({ low: point, high: point, mass: (1 - own) / parent.length });
  atoms.sort((a, b) => a.low - b.low || a.high - b.high);
  const points: number[] = [];
  let cumulative = 0;
  let next = 0;
  for (const atom of atoms) {
    while (next < POINTS && (next + 0.5) / POINTS <= cumulative + atom.mass + 1e-12) {
      const within = atom.mass > 0 ? ((next + 0.5) / POINTS - cumulative) / atom.mass : 0;
      points.push(atom.low + Math.min(1, Math.max(0, within)) * (atom.high - atom.low));
      next++;
    }
    cumulative += atom.mass;
  }
  const last = atoms[atoms.length - 1]?.high ?? 0;
  while (points.length < POINTS) points.push(last);
  return points.sort((a, b) => a - b);
}

/** The plan itself: every point at 0 minutes. */
export const PLAN_POINTS: Points = Array.from({ length: POINTS }, () => 0);

export function shift(points: Points, minutes: number): Points {
  return points.map((p) => p + minutes);
}

/** The sum of two independent lateness steps, reduced back to POINTS equal-mass points. */
export function addIndependent(a: Points, b: Points): Points {
  const sums: number[] = [];
  for (const x of a) for (const y of b) sums.push(x + y);
  sums.sort((p, q) => p - q);
  const step = sums.length / POINTS;
  return Array.from({ length: POINTS }, (_, i) => sums[Math.floor((i + 0.5) * step)] ?? 0);
}

/**
 * The distribution given that the value is at least `floor` (a milestone not reported yet has not
 * happened yet): the points below are dropped and the rest re-spread; all below, all at `floor`.
 */
export function atLeast(points: Points, floor: number): Points {
  const kept = points.filter((p) => p >= floor);
  if (kept.length === points.length) return points;
  if (kept.length === 0) return points.map(() => floor);
  const step = kept.length / POINTS;
  return Array.from({ length: POINTS }, (_, i) => kept[Math.floor((i + 0.5) * step)] ?? floor);
}

/** The q-quantile (0..1) of points, interpolated between neighbours. */
export function quantile(points: Points, q: number): number {
  if (points.length === 0) return 0;
  const position = q * points.length - 0.5;
  const low = Math.max(0, Math.min(points.length - 1, Math.floor(position)));
  const high = Math.min(points.length - 1, low + 1);
  const within = Math.max(0, Math.min(1, position - low));
  return (points[low] ?? 0) + within * ((points[high] ?? 0) - (points[low] ?? 0));
}

export function meanOf(points: Points): number {
  return points.reduce((s, p) => s + p, 0) / (points.length || 1);
}
