/**
 * Fault suite, conditional-write conflicts, through the real local runner: 20 carrier
 * messages on ONE AWB at the same moment — every status of a three-leg booking (RCS, then DEP, ARR and
 * RCF per leg) and each of them a second time — while a rule and a webhook listen. The route-map
 * writes race on one item; the outbox, the matcher and the delivery queue run behind them. Every
 * distinct event must reach each target exactly once (one e-mail per event, one webhook POST with its
 * own webhook-id per event), nothing may be lost, and the route map must end with every milestone.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { confirmNotifyTo } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;

const FFW = "/ffw/service/routemap";
const SERIAL = "55500012"; // check digit: 5550001 mod 7 = 2
const OWNER = { id: "FAULTS-FWD", code: "5550001", cass: "0555" };
const MAIL = "faults@forwarder.example";
const PSK = "faults-pre-shared-key-0001";
const SUBSCRIBED = "RCS,DEP,ARR,RCF";

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({ DELIVERY_RETRY_SCALE: "0.0001" });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Fault Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const N = minuteNow();
/** FRA -> MUC -> LHR -> JFK, all flown already: every status below is an actual in the past. */
const LEGS = [
  { carrier: "LH", flight: "2001", from: "FRA", to: "MUC", std: N - 14 * HOUR, sta: N - 13 * HOUR },
  { carrier: "LH", flight: "2472", from: "MUC", to: "LHR", std: N - 11 * HOUR, sta: N - 9 * HOUR },
  { carrier: "BA", flight: "117", from: "LHR", to: "JFK", std: N - 8 * HOUR, sta: N - HOUR },
];
const awb = {
  AirlinePrefix: "020",
  AwbNumber: SERIAL,
  Origin: "FRA",
  Destination: "JFK",
  Pieces: 4,
  WeightCode: "K",
  Weight: 80,
};

function status(
  type: "RCS" | "DEP" | "ARR" | "RCF",
  station: string,
  ms: number,
  leg?: (typeof LEGS)[number],
) {
  return {
    ...awb,
    Type: type,
    Station: station,
    Time: local(station, ms).jsonForm,
    ...(leg
      ? {
          Flight: { CarrierCode: leg.carrier, FlightNumber: leg.flight, Date: local(leg.from, leg.std).date },
        }
      : {}),
  };
}

/** The ten distinct statuses, keyed as the payload names them: `<Event>@<AirportOfEvent>`. */
const STATUSES = new Map<string, ReturnType<typeof status>>([
  ["RCS@FRA", status("RCS", "FRA", N - 16 * HOUR)],
  ...LEGS.flatMap(
    (leg): Array<[string, ReturnType<typeof status>]> => [
      [`DEP@${leg.from}`, status("DEP", leg.from, leg.std + 5 * MINUTE, leg)],
      [`ARR@${leg.to}`, status("ARR", leg.to, leg.sta - 5 * MINUTE, leg)],
      [`RCF@${leg.to}`, status("RCF", leg.to, leg.sta + 40 * MINUTE, leg)],
    ],
  ),
]);

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
}

it(
  "20 concurrent messages on one AWB: every distinct event delivered exactly once per target, route map complete",
  async () => {
    const owner = tokens.forwarder(OWNER.id, OWNER.code, OWNER.cass, "FRA");
    const carrier = tokens.carrier("020");
    // Subscribed first: rules and webhooks only hear events recorded after their creation.
    const rule = await call(stack.url, "POST", `${FFW}/eventconfignotifier`, {
      token: owner,
      json: {
        ChannelType: "Email",
        NotifyTo: MAIL,
        HeaderItems: "AWB,MIL,STN",
        FormatType: "Html",
        AirlinePrefix: "020",
        Event: SUBSCRIBED,
        EventAlert: true,
        MissedEventAlert: false,
        ProActiveAlert: false,
        ProActiveTime: 0,
        Enabled: true,
      },
    });
    expect(rule.status, rule.text).toBe(200);
    // A new NotifyTo address receives alerts once confirmed.
    await confirmNotifyTo(stack.sesUrl, MAIL);
    const webhook = await call(stack.url, "POST", `${FFW}/webhook`, {
      token: owner,
      json: {
        Event: SUBSCRIBED,
        Url: `${receiver.url}/faults`,
        Enable: true,
        Type: "json",
        AWB: "",
        Psk: PSK,
      },
    });
    expect(webhook.status, webhook.text).toBe(200);
    expect((webhook.body as { Enabled: boolean }).Enabled).toBe(true);

    const booking = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      json: {
        Messages: [
          {
            ...awb,
            Type: "BKD",
            Legs: LEGS.map((leg) => ({
              CarrierCode: leg.carrier,
              FlightNumber: leg.flight,
              Date: local(leg.from, leg.std).date,
              Origin: leg.from,
              Destination: leg.to,
              ScheduledDeparture: local(leg.from, leg.std).jsonForm,
              ScheduledArrival: local(leg.to, leg.sta).jsonForm,
              IsRoadFeederService: false,
            })),
          },
          { ...awb, Type: "FWB", Agent: { Code: OWNER.code, Cass: OWNER.cass } },
        ],
      },
    });
    expect(booking.status, booking.text).toBe(200);

    // Each status twice, all 20 at once, in an order that interleaves the copies.
    const messages = [...STATUSES.values(), ...[...STATUSES.values()].reverse()];
    expect(messages).toHaveLength(20);
    let conflicts = 0;
    const answers = await Promise.all(
      messages.map(async (message) => {
        for (let attempt = 1; ; attempt++) {
          const answer = await call(stack.url, "POST", "/carrier/messages", {
            token: carrier,
            json: message,
          });
          // 409 after the service's own retries is the contract's "try again" (a carrier resends).
          if (answer.status !== 409 || attempt === 5) return answer;
          conflicts++;
        }
      }),
    );
    expect(answers.map((answer) => `${answer.status} ${answer.status === 200 ? "" : answer.text}`)).toEqual(
      messages.map(() => "200 "),
    );
    // Each status changed the route map once; its copy, whichever came second, changed nothing.
    const changed = answers.map(
      (answer) => (answer.body as { Applied: Array<{ Changed: boolean }> }).Applied[0]?.Changed,
    );
    expect(changed.filter((flag) => flag === true)).toHaveLength(STATUSES.size);
    if (conflicts > 0) process.stdout.write(`faults: ${conflicts} answers were 409 and were resent\n`);

    const expected = [...STATUSES.keys()].sort();
    const posts = () => receiver.postsTo("/faults");
    const emails = async () =>
      ((await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: StoredEmail[] }).emails.filter(
        // Alerts only: the address's confirmation e-mail is not one.
        (email) =>
          email.destination.to.includes(MAIL) && !email.subject.startsWith("Confirm shipment alerts"),
      );
    await waitFor(
      async () => posts().length >= expected.length && (await emails()).length >= expected.length,
      45_000,
    );
    // Anything duplicated would arrive shortly after: give it the time.
    await new Promise((resolve) => setTimeout(resolve, 3000));

    // Webhook: one POST per distinct event, each with its own webhook-id.
    const delivered = posts().map(
      (post) => JSON.parse(post.body) as { Event: string; AirportOfEvent: string },
    );
    expect(delivered.map((payload) => `${payload.Event}@${payload.AirportOfEvent}`).sort()).toEqual(expected);
    const ids = posts().map((post) => post.headers["webhook-id"]);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(expected.length);

    // Rule: one e-mail per distinct event (the subject names milestone and station).
    const subjects = (await emails()).map((email) => email.subject);
    expect(subjects).toHaveLength(expected.length);
    expect(new Set(subjects).size).toBe(expected.length);
    for (const key of expected) {
      const [milestone, station] = key.split("@");
      expect(
        subjects.filter(
          (subject) => subject.includes(`MIL ${milestone}`) && subject.includes(`STN ${station}`),
        ),
        key,
      ).toHaveLength(1);
    }

    // The delivery logs agree: ten deliveries per target, all delivered.
    const ruleId = (rule.body as { Id: number }).Id;
    const webhookId = (webhook.body as { Id: number }).Id;
    for (const path of [
      `${FFW}/eventconfignotifier/${ruleId}/deliveries`,
      `${FFW}/webhook/${webhookId}/deliveries`,
    ]) {
      const log = await call(stack.url, "GET", path, { token: owner });
      expect(log.status, log.text).toBe(200);
      const items = (log.body as { Items: Array<{ DeliveryId: string; Status: string }> }).Items;
      expect(items.map((item) => item.Status)).toEqual(expected.map(() => "delivered"));
      expect(new Set(items.map((item) => item.DeliveryId)).size).toBe(expected.length);
    }

    // The route map kept every report although the writes raced.
    const read = await call(stack.url, "GET", `${FFW}/020${SERIAL}`, { token: owner });
    expect(read.status, read.text).toBe(200);
    const map = read.body as {
      MilestonePlan: {
        OriginCycle: { Milestone: Milestone[] };
        RoutingCycle: {
          Flight: Array<{ FlightInfo: { Routing: { Origin: string } }; Milestone: Milestone[] }>;
        };
      };
    };
    const reported = [
      ...map.MilestonePlan.OriginCycle.Milestone,
      ...map.MilestonePlan.RoutingCycle.Flight.flatMap((flight) => flight.Milestone),
    ]
      .filter((milestone) => milestone.ActualDateTime !== null)
      .map((milestone) => `${milestone.Name}@${milestone.Station}`);
    expect([...new Set(reported)].filter((key) => expected.includes(key)).sort()).toEqual(expected);
    expect(map.MilestonePlan.RoutingCycle.Flight).toHaveLength(LEGS.length);
  },
  scaled(120_000),
);

interface Milestone {
  Name: string;
  Station: string;
  ActualDateTime: { Utc: string } | null;
}
