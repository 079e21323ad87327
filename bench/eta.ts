/**
 * Predictions: a generated history replayed message by message through the real ingest use case (our
 * JSON carrier form, in-memory repositories) with the predictions observer wired as the handler wires
 * it. The world: 2 hubs, 4 feeder and 6 long-haul stations, 3 daily flights per line, each flight with
 * its own departure lateness and a weekday effect, 4% disruptions (3-10 h), night arrivals waiting for
 * the morning shift, station handling times (RCF, NFD, AWD, DLV) right-skewed; 70% two-leg journeys
 * booked on the earliest onward flight 40 min to 4 h after the feeder's arrival, so the slack varies;
 * a transfer really takes the station's minimum connection time +- 15 min, and a shipment not ready
 * before the onward flight actually leaves misses it and is rebooked on the next flight.
 *
 * Lane statistics learn from route maps completed in the first 70% of the time; every shipment booked
 * after that is scored (learning frozen): per milestone and horizon the median absolute error and P90
 * coverage of the service and of the plan alone. Connections are re-assessed on every message and at
 * the service's timed checks (one per planned milestone not reported); an alert is a connection turning
 * from Ok before the onward scheduled departure (once per connection): precision, recall and median
 * lead time against the connections the generator made miss. Also the extra DynamoDB write units per
 * status message the predictions add (write-cost.ts).
 *
 * Seeded: the same figures every run. BENCH_ETA_SHIPMENTS (default 3000, about 9 min) sets the size.
 */
import type { AwbId } from "../functions/core/carrier-messages/types.ts";
import { type ConnectionRisk, connectionsOf } from "../functions/core/predictions/connections.ts";
import { journeyOf } from "../functions/core/predictions/journey.ts";
import { type LaneIncrements, laneItemsOf } from "../functions/core/predictions/lane-stats.ts";
import { predictRouteMap } from "../functions/core/predictions/predict.ts";
import {
  accuracyOf,
  HORIZONS,
  type HorizonPrediction,
  type ScoredRouteMap,
} from "../functions/core/predictions/scoring.ts";
import {
  counterItemBytes,
  documentItemBytes,
  laneStatWriteUnits,
  writeUnitsOf,
} from "../functions/core/predictions/write-cost.ts";
import { dueChecks } from "../functions/core/route-map/due-checks.ts";
import { toPair } from "../functions/core/time/station-time.ts";
import { ingestCarrierMessage } from "../functions/core/use-cases/ingest-carrier-message.ts";
import { observeRouteMapChange } from "../functions/core/use-cases/observe-route-map-change.ts";
import {
  memoryLaneStatsStore,
  memoryPredictionStore,
  memoryStationSettings,
} from "../test/support/memory/predictions.ts";
import { memoryRouteMapRepository } from "../test/support/memory/route-map-repository.ts";
import { figure, median, serialFor } from "./support.ts";

const SHIPMENTS = Number(process.env.BENCH_ETA_SHIPMENTS ?? 3000);
const DAYS = 150;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.parse("2026-01-05T00:00:00Z");

// A seeded generator (mulberry32), so the history and the figures repeat.
let seed = 26;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const uniform = (low: number, high: number) => low + (high - low) * random();
function normal(mean: number, sd: number): number {
  const u = Math.max(1e-9, random());
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
/** Positive, right-skewed: a median and a spread factor. */
const lognormal = (medianMinutes: number, sigma: number) => medianMinutes * Math.exp(normal(0, sigma));
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

interface FlightLine {
  carrier: string;
  number: string;
  origin: string;
  destination: string;
  /** Scheduled departure, minutes after 00:00 UTC, daily. */
  stdMinute: number;
  blockMinutes: number;
  /** Departure lateness of this flight: mean and spread, minutes. */
  depMean: number;
  depSd: number;
  /** Extra departure lateness by weekday (0 = Sunday). */
  weekday: number[];
  arrMean: number;
}

const HUBS = ["FRA", "AMS"] as const;
const SPOKES_OUT = ["MUC", "CDG", "LHR", "MAD"] as const;
const SPOKES_IN = ["JFK", "ORD", "HKG", "SIN", "DXB", "NRT"] as const;
const lines: FlightLine[] = [];
let flightNumber = 100;
function line(carrier: string, origin: string, destination: string, blockMinutes: number, stdMinute: number) {
  const weekday = Array.from({ length: 7 }, () => 0);
  weekday[pick([1, 5])] = uniform(15, 45);
  lines.push({
    carrier,
    number: String(flightNumber++),
    origin,
    destination,
    stdMinute,
    blockMinutes,
    depMean: uniform(-5, 50),
    depSd: uniform(8, 30),
    weekday,
    arrMean: uniform(-20, 15),
  });
}
for (const hub of HUBS) {
  const carrier = hub === "FRA" ? "LH" : "KL";
  for (const spoke of SPOKES_OUT) {
    for (const std of [6 * 60, 11 * 60, 16 * 60]) line(carrier, spoke, hub, uniform(60, 130), std);
  }
  for (const spoke of SPOKES_IN) {
    for (const std of [10 * 60 + 30, 15 * 60, 19 * 60 + 30])
      line(carrier, hub, spoke, uniform(420, 720), std);
  }
}
/** Per station: median RCF after ARR, NFD after RCF, AWD after NFD, DLV after AWD (minutes). */
const handling = new Map<string, { rcf: number; nfd: number; awd: number; dlv: number; mct: number }>();
for (const station of [...HUBS, ...SPOKES_OUT, ...SPOKES_IN]) {
  handling.set(station, {
    rcf: uniform(60, 200),
    nfd: uniform(30, 150),
    awd: uniform(60, 300),
    dlv: uniform(300, 1500),
    mct: uniform(80, 110),
  });
}
const handlingAt = (station: string) =>
  handling.get(station) ?? { rcf: 120, nfd: 90, awd: 120, dlv: 600, mct: 90 };

const localMinute = (station: string, ms: number) =>
  toPair(station, new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")).Local.slice(0, 16);
/** Hour of day at a station (local). */
const localHour = (station: string, ms: number) => Number(localMinute(station, ms).slice(11, 13));

interface Leg {
  line: FlightLine;
  stdMs: number;
  staMs: number;
}
interface Message {
  at: number;
  serial: string;
  body: Record<string, unknown>;
}
interface Truth {
  serial: string;
  bookedAt: number;
  /** Connection the generator made miss: the onward flight and its scheduled departure. */
  missed: { station: string; outbound: string; stdMs: number } | null;
  connection: { station: string; outbound: string; stdMs: number } | null;
}

const legJson = (leg: Leg) => ({
  CarrierCode: leg.line.carrier,
  FlightNumber: leg.line.number,
  Date: localMinute(leg.line.origin, leg.stdMs).slice(0, 10),
  Origin: leg.line.origin,
  Destination: leg.line.destination,
  ScheduledDeparture: localMinute(leg.line.origin, leg.stdMs),
  ScheduledArrival: localMinute(leg.line.destination, leg.staMs),
  IsRoadFeederService: false,
});
const flightJson = (leg: Leg) => ({
  CarrierCode: leg.line.carrier,
  FlightNumber: leg.line.number,
  Date: localMinute(leg.line.origin, leg.stdMs).slice(0, 10),
});

/** The day's departure of a line at or after `afterMs`. */
function departureOf(l: FlightLine, afterMs: number): Leg {
  let stdMs = Math.floor(afterMs / DAY) * DAY + l.stdMinute * MINUTE;
  while (stdMs < afterMs) stdMs += DAY;
  return { line: l, stdMs, staMs: stdMs + Math.round(l.blockMinutes) * MINUTE };
}

/** A flight's actual departure and arrival (the same for every shipment on it). */
const flown = new Map<string, { dep: number; arr: number }>();
function fly(leg: Leg): { dep: number; arr: number } {
  const key = `${leg.line.number}@${leg.stdMs}`;
  const known = flown.get(key);
  if (known) return known;
  const weekday = new Date(leg.stdMs).getUTCDay();
  let late = normal(leg.line.depMean + (leg.line.weekday[weekday] ?? 0), leg.line.depSd);
  if (random() < 0.04) late += uniform(180, 600); // disruption
  const dep = leg.stdMs + Math.max(-10, late) * MINUTE;
  const arr = dep + (leg.line.blockMinutes + normal(leg.line.arrMean, 12)) * MINUTE;
  const result = { dep, arr };
  flown.set(key, result);
  return result;
}

function generate(index: number): { messages: Message[]; truth: Truth } {
  const serial = serialFor(4_000_000 + index);
  const bookedAt = START + random() * DAYS * DAY;
  const direct = random() < 0.3;
  const first = pick(
    lines.filter((l) => (direct ? HUBS.includes(l.origin as "FRA") : !HUBS.includes(l.origin as "FRA"))),
  );
  const leg1 = departureOf(first, bookedAt + uniform(12, 96) * HOUR);
  const legs: Leg[] = [leg1];
  if (!direct) {
    // A destination from the hub, then the earliest of its daily departures that leaves the booked
    // connection time after the scheduled arrival: bookings take tight connections (40 min) as well as
    // comfortable ones (4 h), so the slack varies and some connections miss.
    const destinationOut = pick(SPOKES_IN);
    const onwardLines = lines.filter(
      (l) => l.origin === first.destination && l.destination === destinationOut,
    );
    const earliest = leg1.staMs + uniform(40, 240) * MINUTE;
    const choices = onwardLines.map((l) => departureOf(l, earliest)).sort((a, b) => a.stdMs - b.stdMs);
    legs.push(choices[0] as Leg);
  }
  const origin = leg1.line.origin;
  const destination = (legs.at(-1) as Leg).line.destination;
  const base = {
    AirlinePrefix: "020",
    AwbNumber: serial,
    Origin: origin,
    Destination: destination,
    Pieces: 4,
  };
  const messages: Message[] = [];
  const reportDelay = () => uniform(1, 25) * MINUTE;
  const status = (type: string, station: string, at: number, leg: Leg | null) =>
    messages.push({
      at: at + reportDelay(),
      serial,
      body: {
        ...base,
        Type: type,
        Station: station,
        Time: localMinute(station, at),
        ...(leg ? { Flight: flightJson(leg) } : {}),
      },
    });
  messages.push({ at: bookedAt, serial, body: { ...base, Type: "BKD", Legs: legs.map(legJson) } });
  messages.push({
    at: bookedAt + 5 * MINUTE,
    serial,
    body: { ...base, Type: "FWB", Agent: { Code: "1234567", Cass: "0001" } },
  });
  status("RCS", origin, leg1.stdMs - lognormal(300, 0.5) * MINUTE, null);
  let missed: Truth["missed"] = null;
  let connection: Truth["connection"] = null;
  let lastRcf = 0;
  let lastStation = origin;
  const flownLegs = [...legs];
  for (let i = 0; i < flownLegs.length; i++) {
    const leg = flownLegs[i] as Leg;
    const { dep, arr } = fly(leg);
    status("DEP", leg.line.origin, dep, leg);
    status("ARR", leg.line.destination, arr, leg);
    const h = handlingAt(leg.line.destination);
    // Night arrivals wait for the morning shift.
    const night = localHour(leg.line.destination, arr) < 5 ? 150 : 0;
    const rcf = arr + (lognormal(h.rcf, 0.35) + night) * MINUTE;
    status("RCF", leg.line.destination, rcf, leg);
    lastRcf = rcf;
    lastStation = leg.line.destination;
    const onward = flownLegs[i + 1];
    if (onward) {
      const conn = {
        station: onward.line.origin,
        outbound: `${onward.line.carrier}${onward.line.number}`,
        stdMs: onward.stdMs,
      };
      connection = conn;
      const ready = arr + normal(h.mct, 15) * MINUTE;
      if (ready > fly(onward).dep) {
        // Missed: rebooked on the first departure to the same destination after the shipment is ready.
        missed = conn;
        const rebooked = lines
          .filter((l) => l.origin === onward.line.origin && l.destination === onward.line.destination)
          .map((l) => departureOf(l, Math.max(ready, fly(onward).dep) + 30 * MINUTE))
          .sort((a, b) => a.stdMs - b.stdMs)[0] as Leg;
        flownLegs[i + 1] = rebooked;
        messages.push({
          at: fly(onward).dep + uniform(20, 90) * MINUTE,
          serial,
          body: { ...base, Type: "BKD", WholeItinerary: true, Legs: [legJson(leg), legJson(rebooked)] },
        });
      }
    }
  }
  const h = handlingAt(lastStation);
  const nfd = lastRcf + lognormal(h.nfd, 0.4) * MINUTE;
  const awd = nfd + lognormal(h.awd, 0.5) * MINUTE;
  const dlv = awd + lognormal(h.dlv, 0.6) * MINUTE;
  status("NFD", destination, nfd, null);
  status("AWD", destination, awd, null);
  status("DLV", destination, dlv, null);
  return { messages, truth: { serial, bookedAt, missed, connection } };
}

const generated = Array.from({ length: SHIPMENTS }, (_, i) => generate(i));
const messages = generated.flatMap((g) => g.messages).sort((a, b) => a.at - b.at);
const bookings = generated.map((g) => g.truth.bookedAt).sort((a, b) => a - b);
const cutoff = bookings[Math.floor(bookings.length * 0.7)] ?? START;
const testSerials = new Set(generated.filter((g) => g.truth.bookedAt >= cutoff).map((g) => g.truth.serial));

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const routeMaps = memoryRouteMapRepository();
const laneStats = memoryLaneStatsStore();
const predictions = memoryPredictionStore();
const stations = memoryStationSettings();
// Support sets each station's published minimum connection time (whole 5 minutes); the time a
// transfer really takes scatters around it.
for (const [station, h] of handling) {
  await stations.setMinimumConnectionTime(station, Math.round(h.mct / 5) * 5, iso(START));
}
// Write units the predictions add, as DynamoDB would bill the adapter's items (write-cost.ts).
const extraUnits = { laneStats: 0, horizons: 0, scored: 0 };
const observerDeps = {
  laneStats: {
    read: laneStats.read,
    add: async (increments: LaneIncrements) => {
      extraUnits.laneStats += laneStatWriteUnits(laneStats.items, increments);
      await laneStats.add(increments);
    },
  },
  predictions: {
    ...predictions,
    putHorizon: async (awb: AwbId, prediction: HorizonPrediction) => {
      extraUnits.horizons += writeUnitsOf(documentItemBytes(prediction));
      await predictions.putHorizon(awb, prediction);
    },
    putScored: async (scored: ScoredRouteMap) => {
      extraUnits.scored += writeUnitsOf(documentItemBytes(scored));
      await predictions.putScored(scored);
    },
  },
  learn: true,
};
let observerFailures = 0;
const deps = {
  routeMaps,
  carriers: { get: async () => null },
  backoff: async () => {},
  changeObserver: {
    observe: (change: Parameters<typeof observeRouteMapChange>[1]) =>
      observeRouteMapChange(observerDeps, change),
    failed: () => {
      observerFailures++;
    },
  },
};

/** Connection risk last seen per AWB and connection, and the first alert (before the onward STD). */
const lastRisk = new Map<string, ConnectionRisk>();
const alerts = new Map<string, { atMs: number; stdMs: number }>();

/** Re-assesses a route map's connections at `atMs`, alerting once per connection on its first turn from Ok. */
async function assess(serial: string, atMs: number): Promise<void> {
  const record = await routeMaps.get({ prefix: "020", serial });
  if (!record || record.state.legs.length < 2) return;
  const now = iso(atMs);
  const stats = await laneStats.read(laneItemsOf(journeyOf(record.state)));
  const predicted = predictRouteMap(record.state, stats, now);
  const minimums = await stations.minimumConnectionTimes(record.state.legs.map((l) => l.origin));
  for (const c of connectionsOf(record.state, predicted, minimums)) {
    if (c.scheduledDepartureUtc === null) continue;
    const key = `${serial}|${c.station}|${c.outboundFlight}|${c.scheduledDepartureUtc}`;
    const before = lastRisk.get(key) ?? "Ok";
    lastRisk.set(key, c.risk);
    const stdMs = Date.parse(c.scheduledDepartureUtc);
    if (c.risk !== "Ok" && before === "Ok" && atMs < stdMs && !alerts.has(key)) {
      alerts.set(key, { atMs, stdMs });
    }
  }
}

/**
 * The service's timed checks: one per planned milestone not reported yet, at its planned time
 * (plan-due-checks.ts); each re-assesses the connections, so an overdue inbound is noticed without a
 * message. Kept per AWB, replaced after each message as the service replans them.
 */
const dueAt = new Map<string, number[]>();
async function replanChecks(serial: string, afterMs: number): Promise<void> {
  const record = await routeMaps.get({ prefix: "020", serial });
  if (!record || record.state.legs.length < 2) return;
  const times = dueChecks(record.state)
    .map((d) => Date.parse(d.plannedUtc) + 1000)
    .filter((t) => t > afterMs)
    .sort((a, b) => a - b);
  dueAt.set(serial, times);
}
async function runChecksUntil(untilMs: number): Promise<void> {
  for (;;) {
    let next: { serial: string; at: number } | null = null;
    for (const [serial, times] of dueAt) {
      const at = times[0];
      if (at !== undefined && at <= untilMs && (next === null || at < next.at)) next = { serial, at };
    }
    if (next === null) return;
    dueAt.get(next.serial)?.shift();
    await assess(next.serial, next.at);
  }
}

const started = performance.now();
let ingested = 0;
for (const message of messages) {
  observerDeps.learn = message.at < cutoff;
  await runChecksUntil(message.at);
  await ingestCarrierMessage(deps, {
    carrierPrefix: "020",
    contentType: "application/json",
    body: JSON.stringify(message.body),
    now: iso(message.at),
  });
  ingested++;
  if (!testSerials.has(message.serial)) continue;
  await assess(message.serial, message.at);
  await replanChecks(message.serial, message.at);
}
const replayMs = performance.now() - started;

// Accuracy of the test period's shipments, the plan alone beside it.
const scored = (await predictions.scored({ ownerKey: null, since: "" })).filter((s) =>
  testSerials.has(s.awb.slice(3)),
);
const rows = accuracyOf(scored.flatMap((s) => s.scores));
const pct = (v: number | null) => (v === null ? "-" : `${(v * 100).toFixed(1)}%`);
const mins = (v: number | null) => (v === null ? "-" : String(v));
process.stdout.write(
  `Replayed ${ingested} messages of ${SHIPMENTS} shipments (${(replayMs / 1000).toFixed(1)} s); ` +
    `learnt until ${iso(cutoff)}, scored ${scored.length} route maps booked after; observer failures ${observerFailures}\n\n`,
);
process.stdout.write(
  "milestone horizon          n     service: median abs err / P90 cov   plan: median abs err / cov\n",
);
for (const row of rows) {
  process.stdout.write(
    `${row.Milestone.padEnd(9)} ${row.Horizon.padEnd(15)} ${String(row.Service.Count).padStart(5)}  ` +
      `${mins(row.Service.MedianAbsoluteErrorMinutes).padStart(8)} min / ${pct(row.Service.Coverage).padStart(6)}` +
      `          ${mins(row.Plan.MedianAbsoluteErrorMinutes).padStart(8)} min / ${pct(row.Plan.Coverage).padStart(6)}\n`,
  );
}

// Connection at risk: alerts against the connections the generator made miss (test period only).
const testTruths = generated.map((g) => g.truth).filter((t) => testSerials.has(t.serial));
const missedKeys = new Set(
  testTruths.flatMap((t) =>
    t.missed ? [`${t.serial}|${t.missed.station}|${t.missed.outbound}|${iso(t.missed.stdMs)}`] : [],
  ),
);
const connections = testTruths.filter((t) => t.connection !== null).length;
const alerted = [...alerts.keys()];
const truePositives = alerted.filter((k) => missedKeys.has(k));
const precision = alerted.length ? truePositives.length / alerted.length : 0;
const recall = missedKeys.size ? truePositives.length / missedKeys.size : 0;
const leadHours = median(
  truePositives.map((k) => {
    const a = alerts.get(k);
    return a ? (a.stdMs - a.atMs) / HOUR : 0;
  }),
);
process.stdout.write(
  `\nconnections ${connections}, missed ${missedKeys.size}, AtRisk alerts ${alerted.length}, ` +
    `followed by a miss ${truePositives.length}\n`,
);

const statusMessages = messages.filter((m) => m.body.Type !== "BKD" && m.body.Type !== "FWB").length;
const totalExtra = extraUnits.laneStats + extraUnits.horizons + extraUnits.scored;
const perStatus = totalExtra / statusMessages;
process.stdout.write(
  `\nextra write units: lane statistics ${extraUnits.laneStats}, kept horizons ${extraUnits.horizons}, ` +
    `scored route maps ${extraUnits.scored}; per status message ${perStatus.toFixed(2)} ` +
    `(${statusMessages} status messages), per message of any kind ${(totalExtra / ingested).toFixed(2)}; ` +
    `largest lane item ${Math.max(...[...laneStats.items].map(([k, c]) => counterItemBytes(k, c)))} bytes\n`,
);

const nfdAtDep = rows.find((r) => r.Milestone === "NFD" && r.Horizon === "FirstDeparture");
const ratio =
  nfdAtDep?.Service.MedianAbsoluteErrorMinutes != null && nfdAtDep.Plan.MedianAbsoluteErrorMinutes
    ? nfdAtDep.Service.MedianAbsoluteErrorMinutes / nfdAtDep.Plan.MedianAbsoluteErrorMinutes
    : null;
const coverages = rows.map((r) => r.Service.Coverage ?? 0);
for (const horizon of HORIZONS) void horizon;
figure(
  "eta",
  `NFD at first DEP median abs error ${nfdAtDep?.Service.MedianAbsoluteErrorMinutes ?? "-"} min vs plan ` +
    `${nfdAtDep?.Plan.MedianAbsoluteErrorMinutes ?? "-"} min = ${ratio === null ? "-" : `${(ratio * 100).toFixed(0)}%`} ` +
    `(goal <= 50%); P90 coverage NFD at first DEP ${pct(nfdAtDep?.Service.Coverage ?? null)}, all rows ` +
    `${pct(Math.min(...coverages))}-${pct(Math.max(...coverages))} (goal 85-95%); connection at risk precision ` +
    `${pct(precision)} (goal >= 60%), recall ${pct(recall)} (goal >= 80%), median lead ${leadHours.toFixed(1)} h (goal >= 2 h); ` +
    `extra write units per status message ${perStatus.toFixed(2)} (goal <= 2)`,
);
