/**
 * Confirmed means delivered, through the real runner: an alert parked only because its address was
 * not confirmed yet arrives by itself within 60 s of the confirmation, exactly once; one held for more
 * than its relevance window (24 h, moved past with the runner's fake clock) is not sent, and the
 * confirmation page and its delivery log say so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../adapters/pipeline/receiver.ts";
import { confirmationLinks } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

const RULES = "/ffw/service/routemap/eventconfignotifier";
const owner = { id: "HELDALERT", code: "3344556", cass: "0033" };
const ownerToken = () => tokens.forwarder(owner.id, owner.code, owner.cass, "FRA");
const carrier = () => tokens.carrier("020");
/** An 8-digit serial with its check digit (the first seven mod 7). */
const serial = (seven: number) => `${seven}${seven % 7}`;

let stack: RunningStack;

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
  body: { text?: string; html?: string };
}
interface DeliveryView {
  Status: string;
  AwbNumber: string;
  Attempts: Array<{ Outcome: string; Detail: string }>;
}

async function mailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter((email) => email.destination.to.includes(address));
}
const alertsTo = async (address: string) =>
  (await mailsTo(address)).filter((email) => email.subject.startsWith("AWB "));

async function post(body: string): Promise<void> {
  const answer = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier(),
    body,
    contentType: "text/plain",
  });
  expect(answer.status, answer.text).toBe(200);
}

/** Books LH400 FRA → JFK (departed 10 min ago), files the FWB naming the owner, reports the DEP. */
async function shipAndDepart(awbSerial: string): Promise<void> {
  const n = minuteNow();
  const awb = `020-${awbSerial}`;
  const std = local("FRA", n - HOUR);
  const sta = local("JFK", n + 7 * HOUR);
  await post(
    `FSU/13\n${awb}FRAJFK/T10K250.0\nBKD/LH400/${std.ddmmm}/FRAJFK/T10K250.0/S${std.hhmm}/S${sta.hhmm}\n`,
  );
  await post(`FWB/16\n${awb}FRAJFK/T10K250.0\nAGT//${owner.code}/${owner.cass}\n/HELD ALERT FORWARDING\n`);
  const dep = local("FRA", n - 10 * MINUTE);
  await post(`FSU/13\n${awb}FRAJFK/T10K250.0\nDEP/LH400/${dep.ddmmm}/FRAJFK/T10K250.0/A${dep.hhmm}\n`);
}

async function createRule(address: string): Promise<number> {
  const created = await call(stack.url, "POST", RULES, {
    token: ownerToken(),
    json: {
      ChannelType: "Email",
      NotifyTo: address,
      HeaderItems: "AWB,MIL,NTF",
      FormatType: "Html",
      AirlinePrefix: "*",
      Event: "DEP",
      EventAlert: true,
      MissedEventAlert: false,
      ProActiveAlert: false,
      ProActiveTime: 0,
      Enabled: true,
    },
  });
  expect(created.status, created.text).toBe(200);
  return (created.body as { Id: number }).Id;
}

async function deliveriesOf(ruleId: number): Promise<DeliveryView[]> {
  const listed = await call(stack.url, "GET", `${RULES}/${ruleId}/deliveries`, { token: ownerToken() });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { Items: DeliveryView[] }).Items;
}

/** Waits until the rule's delivery is parked "not confirmed yet". */
async function parkedUnconfirmed(ruleId: number): Promise<DeliveryView> {
  let found: DeliveryView | undefined;
  await waitFor(async () => {
    found = (await deliveriesOf(ruleId))[0];
    return found?.Status === "parked";
  }, 60_000);
  if (!found) throw new Error("no parked delivery");
  expect(found.Attempts.at(-1)?.Detail).toMatch(/not confirmed yet/);
  return found;
}

/** Opens the confirmation link mailed to `address` and presses Confirm; the page it answers. */
async function confirm(address: string): Promise<string> {
  let link: string | undefined;
  await waitFor(async () => {
    link = (await confirmationLinks(stack.sesUrl, address)).at(-1);
    return link !== undefined;
  }, 30_000);
  if (!link) throw new Error(`no confirmation link for ${address}`);
  expect((await fetch(link)).status).toBe(200);
  const confirmed = await fetch(link, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "",
  });
  expect(confirmed.status).toBe(200);
  return confirmed.text();
}

beforeAll(async () => {
  stack = await startRunner();
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Carrier 020", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
}, scaled(120_000));

afterAll(async () => {
  await stack?.stop();
});

describe("alerts held for an unconfirmed address", { timeout: 240_000 }, () => {
  it("arrive within 60 s of the confirmation, once", async () => {
    const address = "held@alerts.example";
    const awbSerial = serial(5500001);
    const ruleId = await createRule(address);
    await shipAndDepart(awbSerial);
    await parkedUnconfirmed(ruleId);
    expect(await alertsTo(address)).toEqual([]);

    const page = await confirm(address);
    const confirmedAt = Date.now();
    expect(page).toContain(`Confirmed: ${address}`);
    expect(page).toContain("1 alert held while the address waited for this confirmation is on its way now.");
    const subject = `AWB 020-${awbSerial} | MIL DEP | NTF Event`;
    await waitFor(async () => (await alertsTo(address)).length > 0, 60_000);
    expect(Date.now() - confirmedAt).toBeLessThan(60_000);
    expect((await alertsTo(address)).map((email) => email.subject)).toEqual([subject]);
    // Once: the delivery ends delivered after exactly one sending attempt, and no second e-mail follows
    // while the log settles.
    await waitFor(async () => (await deliveriesOf(ruleId))[0]?.Status === "delivered", 30_000);
    const [delivery] = await deliveriesOf(ruleId);
    expect(delivery?.Attempts.filter((attempt) => attempt.Outcome === "delivered")).toHaveLength(1);
    const settled = Date.now() + 5_000;
    while (Date.now() < settled) {
      expect(await alertsTo(address)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  it("older than their 24 h relevance: listed on the page and in the log, not sent", async () => {
    const address = "stale@alerts.example";
    const awbSerial = serial(5500002);
    const ruleId = await createRule(address);
    await shipAndDepart(awbSerial);
    await parkedUnconfirmed(ruleId);
    const moved = await call(stack.url, "POST", "/__local/clock", {
      token: tokens.support(),
      json: { advanceMs: 25 * HOUR },
    });
    expect(moved.status, moved.text).toBe(200);

    const page = await confirm(address);
    expect(page).toContain(`Confirmed: ${address}`);
    expect(page).toContain("Not sent, held for more than 24 h");
    expect(page).toMatch(
      new RegExp(`Departed \\(DEP\\) of 020-${awbSerial}, raised \\d{1,2} \\w{3} \\d\\d:\\d\\d UTC`),
    );
    expect(page).not.toContain("on its way");
    const [delivery] = await deliveriesOf(ruleId);
    expect(delivery?.Status).toBe("parked");
    expect(delivery?.Attempts.at(-1)?.Detail).toMatch(
      /^not sent: held more than 24 h until stale@alerts\.example was confirmed/,
    );
    expect(await alertsTo(address)).toEqual([]);
  });
});
