/**
 * Seeds the real local runner so every page of the web app has real data, only through the public
 * and support APIs a person or carrier would use (no table writes):
 *   - two onboarded forwarders (the dev sign-in lists them): ACMEFRANK (named Acme Forwarding GmbH), whose pages the tests read,
 *     and OTHERFWDR, whose AWB must never show on ACME's pages or its share link;
 *   - carrier 020 (Lufthansa Cargo) with its settings;
 *   - LATE_AWB, a 3-leg route FRA → JFK → ORD → MEX: RCS 10 min early, LH400 departed 45 min late;
 *   - MISSING_AWB, FRA → JFK on LH402: its DEP falls due after booking, the fake clock moves past
 *     it, and the due check fires (a Missed event): the DEP is Missing;
 *   - ON_TIME_AWB, ACME's, booked for tomorrow with a truck feeder HAJ → FRA then LH406 to JFK:
 *     nothing late or missing (not an exception);
 *   - OTHER_AWB, booked for OTHERFWDR;
 *   - a webhook of ACME on DEP whose receiver refuses the first POST (400: parked at once,
 *     replayable) and accepts later ones; an e-mail rule; a customer endpoint (read-only in the app).
 * Also used by the bench (a 3-leg route map to render). No vitest here: the bench imports it.
 */
import { toPair } from "../../functions/core/time/station-time.ts";
import { type Receiver, startReceiver } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, tokens } from "./runner.ts";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export interface Forwarder {
  ForwarderId: string;
  /** How people name it: the shared page says who shared a route map. */
  Name?: string;
  AgentCode: string;
  AgentCass: string;
  AgentStation: string;
  ContactEmail: string;
}
export const ACME: Forwarder = {
  ForwarderId: "ACMEFRANK",
  Name: "Acme Forwarding GmbH",
  // Not a substring of any AWB here, so "the shared page shows no agent code" can be checked as text.
  AgentCode: "5550123",
  AgentCass: "0001",
  AgentStation: "FRA",
  ContactEmail: "ops@acme.example",
};
export const OTHER: Forwarder = {
  ForwarderId: "OTHERFWDR",
  AgentCode: "7654321",
  AgentCass: "0042",
  AgentStation: "FRA",
  ContactEmail: "ops@other.example",
};

/** AWBs as the app shows them (with the dash) and as paths take them (11 digits). */
export const LATE_AWB = "020-12345675";
export const MISSING_AWB = "020-12345686";
export const OTHER_AWB = "020-12345690";
/** ACME's shipment with nothing wrong (booked for tomorrow): listed, but not an exception. */
export const ON_TIME_AWB = "020-12345701";
/** ON_TIME_AWB's legs from `n` (now, whole minutes): a truck feeder, then a flight, from tomorrow. */
export const ON_TIME_LEGS = (n: number): Leg[] => [
  {
    carrier: "LH",
    number: "9350",
    from: "HAJ",
    to: "FRA",
    std: n + 26 * HOUR,
    sta: n + 28 * HOUR,
    truck: true,
  },
  { carrier: "LH", number: "406", from: "FRA", to: "JFK", std: n + 30 * HOUR, sta: n + 38 * HOUR },
];
export const digits = (awb: string) => awb.replace("-", "");

/** The 3-leg route of LATE_AWB, as the route-map page heads its flight sections. */
export const LATE_LEGS = [
  { carrier: "LH", number: "400", from: "FRA", to: "JFK" },
  { carrier: "LH", number: "8160", from: "JFK", to: "ORD" },
  { carrier: "LH", number: "8230", from: "ORD", to: "MEX" },
] as const;
export const flightHeading = (leg: { carrier: string; number: string; from: string; to: string }) =>
  `${leg.carrier}${leg.number} ${leg.from} → ${leg.to}`;
/** DEP of LH400: planned STD + 1 h (DESIGN.md section 4), reported 45 minutes after that. */
export const LATE_BY_MINUTES = 45;
/** RCS of LATE_AWB: planned first STD − 2 h, reported 10 minutes before that. */
export const EARLY_BY_MINUTES = 10;
/** The verdicts the timeline says of them (verdict-words.ts): LH400 left 1 h 45 min after its STD. */
export const LATE_DEPARTURE_WORDS = `1 h ${LATE_BY_MINUTES} min after schedule · ${LATE_BY_MINUTES} min after plan: Ko`;
export const EARLY_RECEIPT_WORDS = `${EARLY_BY_MINUTES} min before plan: Ok`;

/** Station-local parts of an instant: "2026-03-14T13:41" (JSON form), "2026-03-14", "14MAR", "1341". */
function local(station: string, ms: number) {
  const text = toPair(station, new Date(ms).toISOString().replace(".000Z", "Z")).Local;
  return {
    jsonForm: text.slice(0, 16),
    date: text.slice(0, 10),
    ddmmm: `${text.slice(8, 10)}${MONTHS[Number(text.slice(5, 7)) - 1]}`,
    hhmm: `${text.slice(11, 13)}${text.slice(14, 16)}`,
  };
}

async function expectStatus(
  what: string,
  answer: Promise<{ status: number; text: string }>,
  ...statuses: number[]
): Promise<{ status: number; text: string; body: unknown }> {
  const response = (await answer) as { status: number; text: string; body: unknown };
  if (!statuses.includes(response.status))
    throw new Error(`${what}: expected ${statuses.join(" or ")}, got ${response.status} ${response.text}`);
  return response;
}

export async function waitUntil<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Onboards the forwarders through support's API (the dev sign-in lists onboarded forwarders). */
export async function onboard(stack: RunningStack, ...forwarders: Forwarder[]): Promise<void> {
  for (const forwarder of forwarders)
    await expectStatus(
      `onboarding ${forwarder.ForwarderId}`,
      call(stack.url, "POST", "/support/forwarders", { token: tokens.support(), json: forwarder }),
      201,
      409,
    );
}

export async function carrierSettings(stack: RunningStack): Promise<void> {
  await expectStatus(
    "carrier 020 settings",
    call(stack.url, "PUT", "/support/carriers/020", {
      token: tokens.support(),
      json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
    }),
    200,
  );
}

async function postCarrier(stack: RunningStack, message: unknown): Promise<void> {
  const token = tokens.carrier("020");
  const options =
    typeof message === "string"
      ? { token, body: message, contentType: "text/plain" }
      : { token, json: message };
  await expectStatus("carrier message", call(stack.url, "POST", "/carrier/messages", options), 200);
}

export interface Leg {
  carrier: string;
  number: string;
  from: string;
  to: string;
  std: number;
  sta: number;
  truck?: boolean;
}
const booking = (awb: string, legs: Leg[]) => ({
  Type: "BKD",
  AirlinePrefix: awb.slice(0, 3),
  AwbNumber: awb.slice(4),
  Origin: legs[0]?.from,
  Destination: legs.at(-1)?.to,
  Pieces: 10,
  WeightCode: "K",
  Weight: 250,
  Legs: legs.map((leg) => ({
    CarrierCode: leg.carrier,
    FlightNumber: leg.number,
    Date: local(leg.from, leg.std).date,
    Origin: leg.from,
    Destination: leg.to,
    ScheduledDeparture: local(leg.from, leg.std).jsonForm,
    ScheduledArrival: local(leg.to, leg.sta).jsonForm,
    IsRoadFeederService: leg.truck === true,
  })),
});
const line = (awb: string, legs: Leg[]) => `${awb}${legs[0]?.from}${legs.at(-1)?.to}/T10K250.0`;
const fwb = (awb: string, legs: Leg[], forwarder: Forwarder) =>
  `FWB/16\n${line(awb, legs)}MC1.5\nAGT//${forwarder.AgentCode}/${forwarder.AgentCass}\n/${forwarder.ForwarderId} FORWARDING\n`;
const rcs = (awb: string, legs: Leg[], at: number) => {
  const from = legs[0]?.from ?? "FRA";
  const t = local(from, at);
  return `FSU/13\n${line(awb, legs)}\nRCS/${t.ddmmm}${t.hhmm}/${from}/T10K250.0\n`;
};
const dep = (awb: string, legs: Leg[], leg: Leg, at: number) => {
  const t = local(leg.from, at);
  return `FSU/13\n${line(awb, legs)}\nDEP/${leg.carrier}${leg.number}/${t.ddmmm}/${leg.from}${leg.to}/T10K250.0/A${t.hhmm}\n`;
};

const arr = (awb: string, legs: Leg[], leg: Leg, at: number) => {
  const t = local(leg.to, at);
  return `FSU/13\n${line(awb, legs)}\nARR/${leg.carrier}${leg.number}/${t.ddmmm}${t.hhmm}/${leg.to}/T10\n`;
};
const nfd = (awb: string, legs: Leg[], station: string, at: number) => {
  const t = local(station, at);
  return `FSU/13\n${line(awb, legs)}\nNFD/${t.ddmmm}${t.hhmm}/${station}/T10\n`;
};

/** Books `legs` for `awb` and files the FWB naming `owner` as agent: a shipment owner's pages list. */
export async function bookShipment(
  stack: RunningStack,
  awb: string,
  owner: Forwarder,
  legs: Leg[],
): Promise<void> {
  await postCarrier(stack, booking(awb, legs));
  await postCarrier(stack, fwb(awb, legs, owner));
}

/** LH400's DEP at FRA, station-local ("2026-03-14T13:41"): what the timeline shows as planned and actual. */
export interface LateDeparture {
  plannedLocal: string;
  actualLocal: string;
}

/**
 * Books LATE_AWB (3 legs) for `owner` and reports its RCS (early) and the first DEP (late). With
 * `beforeDeparture`, runs between the FWB and the DEP (the tests create their webhook there, so the
 * DEP reaches it).
 */
export async function seedLateThreeLegShipment(
  stack: RunningStack,
  owner: Forwarder = ACME,
  beforeDeparture: () => Promise<void> = async () => {},
): Promise<LateDeparture> {
  const n = Math.floor(Date.now() / MINUTE) * MINUTE;
  const [first, second, third] = LATE_LEGS;
  const legs: Leg[] = [
    { ...first, std: n - 4 * HOUR, sta: n + 4 * HOUR },
    { ...second, std: n + 6 * HOUR, sta: n + 8 * HOUR },
    { ...third, std: n + 10 * HOUR, sta: n + 14 * HOUR },
  ];
  const firstLeg = legs[0] as Leg;
  await postCarrier(stack, booking(LATE_AWB, legs));
  await postCarrier(stack, fwb(LATE_AWB, legs, owner));
  await postCarrier(stack, rcs(LATE_AWB, legs, firstLeg.std - 2 * HOUR - EARLY_BY_MINUTES * MINUTE));
  await beforeDeparture();
  const plannedMs = firstLeg.std + HOUR;
  const actualMs = plannedMs + LATE_BY_MINUTES * MINUTE;
  await postCarrier(stack, dep(LATE_AWB, legs, firstLeg, actualMs));
  return { plannedLocal: local("FRA", plannedMs).jsonForm, actualLocal: local("FRA", actualMs).jsonForm };
}

/**
 * ACME's shipment for the verdict words, delivered yesterday: LH400 FRA → JFK departed 15 min after
 * its STD and arrived 30 min before its STA, LH8160 JFK → ORD departed 70 min after its STD (10 min
 * after its plan, STD + 1 h) and arrived on time, ready for pick-up at ORD 2 h after plan (last STA +
 * 6 h). At destination. Used by the tests that read the verdicts, not by the scenario above.
 */
export const VERDICTS_AWB = "020-12345723";
/** What the app (signed in and shared) and the e-mails say of each of them (verdict-words.ts). */
export const VERDICT_WORDS = {
  firstDeparture: "15 min after schedule · within plan: Ok",
  firstArrival: "30 min before schedule · within plan: Ok",
  secondDeparture: "1 h 10 min after schedule · 10 min after plan: Ko",
  readyForPickUp: "2 h after plan: Ko",
} as const;
export const VERDICT_LEGS = [
  { carrier: "LH", number: "400", from: "FRA", to: "JFK" },
  { carrier: "LH", number: "8160", from: "JFK", to: "ORD" },
] as const;

export async function seedVerdictShipment(stack: RunningStack, owner: Forwarder = ACME): Promise<void> {
  const n = Math.floor(Date.now() / MINUTE) * MINUTE;
  const [first, second] = VERDICT_LEGS;
  const legs: Leg[] = [
    { ...first, std: n - 30 * HOUR, sta: n - 22 * HOUR },
    { ...second, std: n - 20 * HOUR, sta: n - 17 * HOUR },
  ];
  const [one, two] = legs as [Leg, Leg];
  await postCarrier(stack, booking(VERDICTS_AWB, legs));
  await postCarrier(stack, fwb(VERDICTS_AWB, legs, owner));
  await postCarrier(stack, dep(VERDICTS_AWB, legs, one, one.std + 15 * MINUTE));
  await postCarrier(stack, arr(VERDICTS_AWB, legs, one, one.sta - 30 * MINUTE));
  await postCarrier(stack, dep(VERDICTS_AWB, legs, two, two.std + 70 * MINUTE));
  await postCarrier(stack, arr(VERDICTS_AWB, legs, two, two.sta));
  await postCarrier(stack, nfd(VERDICTS_AWB, legs, "ORD", two.sta + 8 * HOUR));
}

export interface WebScenario {
  receiver: Receiver;
  lateDeparture: LateDeparture;
  /** The receiver path of ACME's webhook: 400 on the first POST, 204 after. */
  hookPath: string;
  webhookId: number;
  ruleId: number;
  /** How far the runner's fake clock was moved (ms). */
  clockAdvancedMs: number;
  stop(): Promise<void>;
}

const WEBHOOKS = "/ffw/service/routemap/webhook";
const RULES = "/ffw/service/routemap/eventconfignotifier";

interface DeliveryView {
  DeliveryId: string;
  Status: string;
  Type: string;
  AwbNumber: string;
}
interface MapView {
  MilestonePlan: { RoutingCycle: { Flight: Array<{ Milestone: Array<{ Name: string; Status: string }> }> } };
}

/** ACME's forwarder token, as the API sees the person the dev sign-in signs in. */
export const acmeToken = () =>
  tokens.forwarder(ACME.ForwarderId, ACME.AgentCode, ACME.AgentCass, ACME.AgentStation);

/** Everything the web-app browser tests read; see the header comment. */
export async function seedWebScenario(stack: RunningStack): Promise<WebScenario> {
  const receiver = await startReceiver();
  const hookPath = "/acme/dep";
  receiver.on(hookPath, { statuses: [400, 204] });
  const support = tokens.support();
  const owner = acmeToken();
  try {
    await onboard(stack, ACME, OTHER);
    await carrierSettings(stack);
    await expectStatus(
      "customer endpoint",
      call(stack.url, "POST", "/support/customer-endpoints", {
        token: support,
        json: {
          ForwarderIdentifier: ACME.ForwarderId,
          Url: `${receiver.url}/acme/customer`,
          HeaderName: "apiKey",
          HeaderValue: "acme-customer-key-0001",
        },
      }),
      200,
    );
    const rule = await expectStatus(
      "rule",
      call(stack.url, "POST", RULES, {
        token: owner,
        json: {
          ChannelType: "Email",
          NotifyTo: "ops@acme.example",
          HeaderItems: "AWB,MIL,NTF",
          FormatType: "Html",
          AirlinePrefix: "*",
          AwbNumber: "",
          Event: "DEP",
          EventAlert: false,
          MissedEventAlert: true,
          ProActiveAlert: false,
          ProActiveTime: 0,
          Destination: "",
          Enabled: true,
        },
      }),
      200,
    );
    let webhookId = 0;
    const lateDeparture = await seedLateThreeLegShipment(stack, ACME, async () => {
      const hook = await expectStatus(
        "webhook",
        call(stack.url, "POST", WEBHOOKS, {
          token: owner,
          json: { Event: "DEP", Url: `${receiver.url}${hookPath}`, Enable: true, Type: "json", AWB: "" },
        }),
        200,
      );
      webhookId = (hook.body as { Id: number }).Id;
    });

    // MISSING_AWB: DEP planned = STD + 1 h = now + 10 min; RCS reported on time.
    const n = Math.floor(Date.now() / MINUTE) * MINUTE;
    const missingLegs: Leg[] = [
      { carrier: "LH", number: "402", from: "FRA", to: "JFK", std: n - 50 * MINUTE, sta: n + 8 * HOUR },
    ];
    await postCarrier(stack, booking(MISSING_AWB, missingLegs));
    await postCarrier(stack, fwb(MISSING_AWB, missingLegs, ACME));
    await postCarrier(stack, rcs(MISSING_AWB, missingLegs, n - 3 * HOUR));

    await bookShipment(stack, ON_TIME_AWB, ACME, ON_TIME_LEGS(n));

    const otherLegs: Leg[] = [
      { carrier: "LH", number: "404", from: "FRA", to: "ORD", std: n + 3 * HOUR, sta: n + 12 * HOUR },
    ];
    await postCarrier(stack, booking(OTHER_AWB, otherLegs));
    await postCarrier(stack, fwb(OTHER_AWB, otherLegs, OTHER));

    // The webhook's first delivery is refused (400): parked at once, replayable from the app.
    await waitUntil(async () => {
      const listed = await call(stack.url, "GET", `${WEBHOOKS}/${webhookId}/deliveries`, { token: owner });
      const items = (listed.body as { Items?: DeliveryView[] }).Items ?? [];
      return items.some((item) => item.Status === "parked");
    }, "the webhook's DEP delivery parked");

    // Past MISSING_AWB's planned DEP: the due check fires and the milestone is Missing.
    const clockAdvancedMs = 15 * MINUTE;
    await expectStatus(
      "fake clock",
      call(stack.url, "POST", "/__local/clock", { token: support, json: { advanceMs: clockAdvancedMs } }),
      200,
    );
    // The positive signal that the due check ran: the rule (MissedEventAlert) got a Missed delivery.
    const ruleId = (rule.body as { Id: number }).Id;
    await waitUntil(async () => {
      const listed = await call(stack.url, "GET", `${RULES}/${ruleId}/deliveries`, { token: owner });
      const items = (listed.body as { Items?: DeliveryView[] }).Items ?? [];
      return items.some((item) => item.Type === "Missed" && item.AwbNumber.endsWith(MISSING_AWB.slice(4)));
    }, `the due check's Missed event for ${MISSING_AWB}`);
    const map = await call(stack.url, "GET", `/ffw/service/routemap/${digits(MISSING_AWB)}`, {
      token: owner,
    });
    const departure = (map.body as MapView).MilestonePlan.RoutingCycle.Flight[0]?.Milestone.find(
      (milestone) => milestone.Name === "DEP",
    );
    if (departure?.Status !== "Missing")
      throw new Error(`${MISSING_AWB}'s DEP is ${departure?.Status}, expected Missing: ${map.text}`);
    return {
      receiver,
      lateDeparture,
      hookPath,
      webhookId,
      ruleId,
      clockAdvancedMs,
      stop: () => receiver.stop(),
    };
  } catch (error) {
    await receiver.stop();
    throw error;
  }
}
