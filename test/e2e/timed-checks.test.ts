/**
 * Scheduled checks through the real local runner, driven by the fake clock (POST /__local/clock):
 * no test sleeps for real minutes. Three AWBs of one owner, booked on FRA->JFK with STD = now + 2 h
 * (DEP planned = STD + 1 h):
 *   A: DEP never reported -> Missing, one Missed e-mail, one Missed Url payload, and the 240-minute
 *      ProActive alert only after planned + 240 min;
 *   B: DEP goes Missing, then is reported late (Ko) before planned + 240: no ProActive alert;
 *   C: replanned to STD + 4 h before anything is due: its check moves; the old check does nothing.
 * A ProActive rule created after DEP went Missing (its checks come from the queued sweep) fires at
 * planned + 300; a disabled Missed rule hears nothing. Then a check delivered twice records once.
 * Absence is asserted only after a positive signal that the work was done: the DueChecks (and
 * DeliveryJobs) queues drained, a schedule still pending or gone, an outcome in the outbox.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import type { RouteMap } from "../../functions/core/route-map/spec-types.ts";
import { confirmNotifyTo } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, iso, local, MINUTE, minuteNow, partitionItems } from "./route-map-helpers.ts";

let stack: RunningStack;
let sqs: SQSClient;
let receiver: Server;
let receiverUrl = "";
const received: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }> = [];
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001", "FRA");
const carrier = tokens.carrier("020");
const A = "02012345675";
const B = "02012345686";
const C = "02012345690";

const N = minuteNow();
const std = N + 2 * HOUR;
const plannedDep = std + HOUR; // DESIGN.md section 4: DEP = STD + 1 h
const movedStd = N + 4 * HOUR;
const movedDep = movedStd + HOUR;
const sta = N + 12 * HOUR; // ARR and later milestones stay out of the window this test moves through
let elapsed = 0; // how far the fake clock has been moved

function booking(awb11: string, departure = std) {
  return {
    Type: "BKD",
    AirlinePrefix: awb11.slice(0, 3),
    AwbNumber: awb11.slice(3),
    Origin: "FRA",
    Destination: "JFK",
    Pieces: 10,
    WeightCode: "K",
    Weight: 250,
    Legs: [
      {
        CarrierCode: "LH",
        FlightNumber: "400",
        Date: local("FRA", departure).date,
        Origin: "FRA",
        Destination: "JFK",
        ScheduledDeparture: local("FRA", departure).jsonForm,
        ScheduledArrival: local("JFK", sta).jsonForm,
        IsRoadFeederService: false,
      },
    ],
  };
}
const fwb = (awb11: string) =>
  `FWB/16\n020-${awb11.slice(3)}FRAJFK/T10K250.0\nAGT//1234567/0001\n/ACME FORWARDING\n`;
const depMessage = (awb11: string, actual: number) => {
  const t = local("FRA", actual);
  return `FSU/13\n020-${awb11.slice(3)}FRAJFK/T10K250.0\nDEP/LH400/${t.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`;
};
const postCarrier = async (json: unknown, text?: string) => {
  const response = text
    ? await call(stack.url, "POST", "/carrier/messages", {
        token: carrier,
        body: text,
        contentType: "text/plain",
      })
    : await call(stack.url, "POST", "/carrier/messages", { token: carrier, json });
  expect(response.status, response.text).toBe(200);
};

/** Moves the runner's clock to `target` (ms on the test's timeline), firing what became due. */
async function advanceTo(target: number): Promise<void> {
  const advanceMs = target - Date.now() - elapsed;
  if (advanceMs <= 0) return;
  const response = await call(stack.url, "POST", "/__local/clock", {
    json: { advanceMs },
    token: tokens.support(),
  });
  expect(response.status).toBe(200);
  elapsed += advanceMs;
}

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const log = stack
        .output()
        .split("\n")
        .filter((line) => !/^\s+at |Invalid URL|ERR_INVALID_URL|input: 'http|^}$/.test(line));
      throw new Error(`timed out waiting for ${what}; runner output:\n${log.slice(-40).join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
/**
 * True once a queue holds nothing: no message visible, in flight or delayed. A message leaves only
 * when its handler succeeded (or dropped it as unreadable), so this says "everything sent was handled".
 */
async function queueEmpty(name: "DueChecks" | "DeliveryJobs"): Promise<boolean> {
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl,
      AttributeNames: [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
      ],
    }),
  );
  return Object.values(Attributes).every((count) => Number(count) === 0);
}
/** Waits until the queues are empty twice in a row (a handler may queue a follow-up meanwhile). */
async function drained(...names: Array<"DueChecks" | "DeliveryJobs">): Promise<void> {
  let empties = 0;
  await waitFor(
    async () => {
      const empty = (await Promise.all(names.map(queueEmpty))).every(Boolean);
      empties = empty ? empties + 1 : 0;
      return empties >= 2;
    },
    `${names.join(" and ")} drained`,
  );
}

interface Schedule {
  Name: string;
  ScheduleExpression: string;
  Target: { Arn: string; Input?: string };
  ActionAfterCompletion?: string;
  FlexibleTimeWindow: { Mode: string };
}
const schedules = async () =>
  (await call(stack.url, "GET", "/__local/schedules", { token: tokens.support() })).body as Schedule[];
const scheduleOf = async (name: string) => (await schedules()).filter((s) => s.Name === name);
/** Every schedule of one milestone of one AWB, whatever its check (names start with this prefix). */
const schedulesOfMilestone = async (awb11: string, milestone = "FRA.DEP") =>
  (await schedules()).filter((s) => s.Name.startsWith(`chk-${awb11}-${milestone}-`));
const at = (ms: number) => `at(${iso(ms).slice(0, 19)})`;

interface OutboxEvent {
  name: string;
  type: string;
  eventStatus: string;
  milestoneKey: string | null;
  reported: unknown;
  planned: { Utc: string } | null;
  proActiveMinutes?: number;
}
async function outbox(awb11: string, type: string, minutes?: number): Promise<OutboxEvent[]> {
  const items = await partitionItems(stack.dynamoEndpoint, awb11, "EVT#");
  return items
    .map((item) => item.event as OutboxEvent)
    .filter((e) => e.type === type && e.name === "DEP")
    .filter((e) => minutes === undefined || e.proActiveMinutes === minutes);
}

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
}
async function allEmails(): Promise<StoredEmail[]> {
  return ((await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: StoredEmail[] }).emails;
}
async function emails(awb11: string, ntf: string, to?: string): Promise<StoredEmail[]> {
  return (await allEmails()).filter(
    (e) =>
      e.subject === `AWB 020-${awb11.slice(3)} | MIL DEP | NTF ${ntf}` &&
      (to === undefined || e.destination.to.includes(to)),
  );
}
const payloads = (awb11: string, type: string) =>
  received.filter((r) => r.body.AirWaybillNumber === awb11.slice(3) && r.body.Type === type);

async function depStatus(awb11: string): Promise<string | undefined> {
  const response = await call(stack.url, "GET", `/ffw/service/routemap/${awb11}`, { token: owner });
  expect(response.status).toBe(200);
  const map = response.body as RouteMap;
  return map.MilestonePlan.RoutingCycle.Flight[0]?.Milestone.find((m) => m.Name === "DEP")?.Status;
}

async function sendCheck(input: Record<string, unknown>): Promise<void> {
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: "DueChecks" }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify(input) }));
}

async function createRule(body: Record<string, unknown>): Promise<void> {
  const response = await call(stack.url, "POST", "/ffw/service/routemap/eventconfignotifier", {
    token: owner,
    json: {
      HeaderItems: "AWB,MIL,NTF",
      FormatType: "Html",
      ChannelType: "Email",
      AirlinePrefix: "*",
      AwbNumber: "",
      Event: "DEP",
      EventAlert: false,
      MissedEventAlert: false,
      ProActiveAlert: false,
      ProActiveTime: 0,
      Destination: "",
      Enabled: true,
      ...body,
    },
  });
  expect(response.status, response.text).toBe(200);
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on("end", () => {
      received.push({ headers: request.headers, body: JSON.parse(text || "{}") as Record<string, unknown> });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks/missed`;
  stack = await startRunner();
  sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  sqs?.destroy();
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("timed checks with the fake clock", { timeout: 90_000 }, () => {
  it("sets up rules (Missed Email, Missed Url, ProActive 240 Email) and three booked AWBs", async () => {
    const endpoint = await call(stack.url, "POST", "/support/customer-endpoints", {
      token: tokens.support(),
      json: {
        ForwarderIdentifier: "ACMECARGO",
        Url: receiverUrl,
        HeaderName: "apiKey",
        HeaderValue: "key-0123456789",
      },
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    const guid = (endpoint.body as { Id: string }).Id;
    await createRule({ MissedEventAlert: true, NotifyTo: "ops@forwarder.example" });
    // A new NotifyTo address receives alerts once confirmed.
    await confirmNotifyTo(stack.sesUrl, "ops@forwarder.example");
    await createRule({
      ChannelType: "Url",
      NotifyTo: guid,
      HeaderItems: "",
      FormatType: "Json",
      MissedEventAlert: true,
    });
    await createRule({ ProActiveAlert: true, ProActiveTime: 240, NotifyTo: "ops@forwarder.example" });
    // Disabled rules never fire (and a disabled ProActive rule schedules nothing).
    await createRule({ MissedEventAlert: true, NotifyTo: "off-missed@forwarder.example", Enabled: false });
    await createRule({
      ProActiveAlert: true,
      ProActiveTime: 120,
      NotifyTo: "off@forwarder.example",
      Enabled: false,
    });

    for (const awb of [A, B, C]) {
      await postCarrier(booking(awb));
      await postCarrier(null, fwb(awb));
    }
    for (const awb of [A, B, C]) {
      const [schedule] = await waitFor(async () => {
        const found = await scheduleOf(`chk-${awb}-FRA.DEP-missing`);
        return found.length === 1 ? found : null;
      }, `the missing check of ${awb}`);
      expect(schedule?.ScheduleExpression).toBe(at(plannedDep + 1000));
      expect(schedule).toMatchObject({
        ActionAfterCompletion: "DELETE",
        FlexibleTimeWindow: { Mode: "OFF" },
      });
      expect(schedule?.Target.Arn).toMatch(/^arn:aws:sqs:.*:DueChecks$/);
      expect(JSON.parse(schedule?.Target.Input ?? "{}")).toEqual({
        awb,
        milestoneKey: "FRA:DEP",
        plannedUtc: iso(plannedDep),
        check: "missing",
      });
    }
  });

  it("a replan that moves the flight moves the check (one schedule, new time)", async () => {
    await postCarrier(booking(C, movedStd));
    await waitFor(
      async () =>
        (await scheduleOf(`chk-${C}-FRA.DEP-missing`))[0]?.ScheduleExpression === at(movedDep + 1000),
      "the moved check of C",
    );
    // The stand-in keys schedules by name: a replan that added a check under another name (not
    // moved the first) would show here as a second schedule of the milestone.
    const mine = await schedulesOfMilestone(C);
    expect(mine.map((s) => [s.Name, s.ScheduleExpression])).toEqual([
      [`chk-${C}-FRA.DEP-missing`, at(movedDep + 1000)],
    ]);
  });

  it("nothing is Missing one minute before STD + 1 h", async () => {
    await advanceTo(plannedDep - MINUTE);
    expect(await depStatus(A)).toBe("Planned");
    await drained("DueChecks");
    // Its check has not fired (still pending) and whatever did fire has been handled.
    expect(await scheduleOf(`chk-${A}-FRA.DEP-missing`)).toHaveLength(1);
    expect(await outbox(A, "Missed")).toHaveLength(0);
  });

  it("a DEP not reported by STD + 1 h turns Missing: one e-mail, one Url payload", async () => {
    await advanceTo(plannedDep + MINUTE);
    for (const awb of [A, B]) {
      await waitFor(async () => (await outbox(awb, "Missed")).length > 0, `the Missed event of ${awb}`);
      expect(await depStatus(awb)).toBe("Missing");
    }
    const [missed] = await outbox(A, "Missed");
    expect(missed).toMatchObject({ eventStatus: "Update", reported: null, milestoneKey: "FRA:DEP" });
    expect(missed?.planned?.Utc).toBe(iso(plannedDep));

    await waitFor(async () => (await emails(A, "Missed")).length > 0, "the Missed e-mail");
    await waitFor(async () => payloads(A, "Missed").length > 0, "the Missed Url payload");
    // Every job the matcher made for A's and B's Missed events (it makes them all at once) is done.
    await waitFor(async () => (await emails(B, "Missed")).length > 0, "B's Missed e-mail");
    await drained("DueChecks", "DeliveryJobs");
    expect(await emails(A, "Missed")).toHaveLength(1);
    expect((await emails(A, "Missed"))[0]?.destination.to).toEqual(["ops@forwarder.example"]);
    expect(payloads(A, "Missed")).toHaveLength(1);
    const payload = payloads(A, "Missed")[0];
    expect(payload?.headers.apikey).toBe("key-0123456789");
    expect(payload?.body).toMatchObject({
      Type: "Missed",
      Event: "DEP",
      EventStatus: "Update",
      // Nothing was reported: no pieces, no weight (TotalShipmentPieces still says what is booked).
      PiecesReported: 0,
      TotalShipmentPieces: 10,
      WeightReported: null,
      WeightCode: null,
      MilestoneReportedUtcTimeStamp: null,
      MilestoneReportedLocalTimeStamp: null,
      PlannedUtcTimeStamp: `${iso(plannedDep).slice(0, -1)}+00:00`,
      PlannedLocalTimeStamp: `${local("FRA", plannedDep).jsonForm}:00`,
      AirportOfEvent: "FRA",
      CarrierCode: "LH",
      FlightNumber: "400",
    });
  });

  it("a disabled Missed rule hears nothing", async () => {
    // The enabled rules' deliveries of the same events arrived and every job is done (previous test).
    expect(
      (await allEmails()).filter((e) => e.destination.to.includes("off-missed@forwarder.example")),
    ).toEqual([]);
  });

  it("the replanned AWB's old check time passes without effect", async () => {
    expect(await depStatus(C)).toBe("Planned");
    // The old check, delivered anyway (as if it had fired before the replan reached the Scheduler).
    await sendCheck({ awb: C, milestoneKey: "FRA:DEP", plannedUtc: iso(plannedDep), check: "missing" });
    await drained("DueChecks");
    expect(await outbox(C, "Missed")).toHaveLength(0);
    expect(await depStatus(C)).toBe("Planned");
  });

  it("the Missing check scheduled the 240-minute proactive check (and none for the disabled rule)", async () => {
    for (const awb of [A, B]) {
      const [proactive] = await waitFor(async () => {
        const found = await scheduleOf(`chk-${awb}-FRA.DEP-proactive-240`);
        return found.length === 1 ? found : null;
      }, `the proactive check of ${awb}`);
      expect(proactive?.ScheduleExpression).toBe(at(plannedDep + 240 * MINUTE));
    }
    expect(await scheduleOf(`chk-${A}-FRA.DEP-proactive-120`)).toHaveLength(0);
  });

  it("a ProActive rule created after DEP went Missing still gets its check", async () => {
    await createRule({ ProActiveAlert: true, ProActiveTime: 300, NotifyTo: "late@forwarder.example" });
    await confirmNotifyTo(stack.sesUrl, "late@forwarder.example");
    const [late] = await waitFor(async () => {
      const found = await scheduleOf(`chk-${A}-FRA.DEP-proactive-300`);
      return found.length === 1 ? found : null;
    }, "the proactive check of the late rule");
    expect(late?.ScheduleExpression).toBe(at(plannedDep + 300 * MINUTE));
  });

  it("B's DEP reported late (Ko) before planned + 240", async () => {
    await advanceTo(plannedDep + 40 * MINUTE);
    await postCarrier(null, depMessage(B, plannedDep + 30 * MINUTE));
    expect(await depStatus(B)).toBe("Ko");
  });

  it("the moved check of C fires at its new time", async () => {
    await advanceTo(movedDep + MINUTE);
    await waitFor(async () => (await outbox(C, "Missed")).length > 0, "the Missed event of C");
    const [missed] = await outbox(C, "Missed");
    expect(missed?.planned?.Utc).toBe(iso(movedDep));
  });

  it("the ProActive rule fires only after planned + 240 min, and only where DEP is still missing", async () => {
    await advanceTo(plannedDep + 239 * MINUTE);
    await drained("DueChecks");
    // Not fired yet (still pending), and everything that did fire has been handled.
    expect(await scheduleOf(`chk-${A}-FRA.DEP-proactive-240`)).toHaveLength(1);
    expect(await outbox(A, "ProActive")).toHaveLength(0);
    await advanceTo(plannedDep + 241 * MINUTE);
    await waitFor(async () => (await outbox(A, "ProActive")).length > 0, "the ProActive event of A");
    expect((await outbox(A, "ProActive"))[0]).toMatchObject({ proActiveMinutes: 240, reported: null });
    await waitFor(async () => (await emails(A, "ProActive")).length > 0, "the ProActive e-mail");
    await drained("DueChecks", "DeliveryJobs");
    expect(await emails(A, "ProActive")).toHaveLength(1);
    // B's check fired too (its schedule is gone) and was handled (queue drained): stale, silent.
    expect(await scheduleOf(`chk-${B}-FRA.DEP-proactive-240`)).toHaveLength(0);
    expect(await outbox(B, "ProActive")).toHaveLength(0);
    expect(await emails(B, "ProActive")).toHaveLength(0);
    // Missed rules do not hear ProActive events.
    expect(payloads(A, "ProActive")).toHaveLength(0);
  });

  it("the ProActive rule created after DEP went Missing fires at planned + 300 min", async () => {
    await advanceTo(plannedDep + 301 * MINUTE);
    await waitFor(async () => (await outbox(A, "ProActive", 300)).length > 0, "the 300-minute event of A");
    const [late] = await outbox(A, "ProActive", 300);
    expect(late).toMatchObject({ proActiveMinutes: 300, reported: null, eventStatus: "Update" });
    expect(late?.planned?.Utc).toBe(iso(plannedDep));
    await waitFor(
      async () => (await emails(A, "ProActive", "late@forwarder.example")).length > 0,
      "the late rule's e-mail",
    );
    await drained("DueChecks", "DeliveryJobs");
    expect(await emails(A, "ProActive", "late@forwarder.example")).toHaveLength(1);
    // The 240-minute rule does not hear the 300-minute alert; B reported late: nothing for it.
    expect(await emails(A, "ProActive", "ops@forwarder.example")).toHaveLength(1);
    expect(await outbox(B, "ProActive")).toHaveLength(0);
  });

  it("a check delivered twice fires once", async () => {
    const check = { awb: A, milestoneKey: "FRA:DEP", plannedUtc: iso(plannedDep), check: "missing" };
    await sendCheck(check);
    await sendCheck(check);
    await sendCheck({ ...check, check: "proactive", minutes: 240 });
    await drained("DueChecks", "DeliveryJobs");
    expect(await outbox(A, "Missed")).toHaveLength(1);
    expect(await outbox(A, "ProActive", 240)).toHaveLength(1);
    expect(await emails(A, "Missed")).toHaveLength(1);
    expect(payloads(A, "Missed")).toHaveLength(1);
    expect(await emails(A, "ProActive", "ops@forwarder.example")).toHaveLength(1);
    // C's Missed e-mail went out meanwhile; the disabled Missed rule still heard nothing at all.
    expect(await emails(C, "Missed")).toHaveLength(1);
    expect(
      (await allEmails()).filter((e) => e.destination.to.includes("off-missed@forwarder.example")),
    ).toEqual([]);
  });
});
