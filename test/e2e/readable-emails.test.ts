/**
 * Issue 14 point 2 end to end, through the real local runner: the e-mails a forwarder's rules send,
 * read from the SES emulator as a person would. Each has a headline with the verdict, the shipment's
 * timeline in local times with zone abbreviations, a link to the route map (the signed-in app's page,
 * or a share link when the rule's ShareLinkHours asks; that link opens the route map signed out) and
 * to the alerts page, in an HTML part and a text/plain part. One e-mail per address and event although
 * two of the forwarder's rules match; the subject still follows HeaderItems.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../adapters/pipeline/receiver.ts";
import { confirmNotifyTo } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
const RULES = "/ffw/service/routemap/eventconfignotifier";
const carrier = tokens.carrier("020");
const owner = { id: "H9-FWD1", code: "4455667", cass: "0044" };
const ownerToken = tokens.forwarder(owner.id, owner.code, owner.cass, "FRA");

beforeAll(async () => {
  stack = await startRunner({ DELIVERY_RETRY_SCALE: "0.0001" });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Carrier 020", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
});

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}
async function emailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter(
    (email) => email.destination.to.includes(address) && !email.subject.startsWith("Confirm shipment alerts"),
  );
}

function ruleBody(overrides: Record<string, unknown>) {
  return {
    ChannelType: "Email",
    NotifyTo: "ops@readable.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "*",
    AwbNumber: "",
    Event: "DEP",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "",
    Enabled: true,
    ...overrides,
  };
}
async function createRule(
  overrides: Record<string, unknown>,
): Promise<{ Id: number; ShareLinkHours: number | null }> {
  const created = await call(stack.url, "POST", RULES, { token: ownerToken, json: ruleBody(overrides) });
  expect(created.status, created.text).toBe(200);
  return created.body as { Id: number; ShareLinkHours: number | null };
}

const N = minuteNow();
/**
 * STD 90 min ago: DEP planned (STD + 1 h) 30 min ago; the DEP reported 15 min ago is 1 h 15 min after
 * schedule and 15 min after plan (Ko).
 */
const STD = N - 90 * MINUTE;
/** FRA's zone abbreviation now (CET in winter, CEST in summer). */
const FRA_ZONE = /\d{2}:\d{2} (CET|CEST)/;
const serial = "44556676";
const AWB = `020-${serial}`;

/** FWB first (so the owner hears the booking's overdue milestones), then the booking, then the late DEP. */
async function shipLate(): Promise<void> {
  const fwb = `FWB/16\n${AWB}FRAJFK/T10K250.0MC1.5\nAGT//${owner.code}/${owner.cass}\n/ACME FORWARDING\n`;
  const t = local("FRA", N - 15 * MINUTE);
  const dep = `FSU/13\n${AWB}FRAJFK/T10K250.0\nDEP/LH400/${local("FRA", STD).ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`;
  const posted = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body: fwb,
    contentType: "text/plain",
  });
  expect(posted.status, posted.text).toBe(200);
  const booking = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    json: {
      Type: "BKD",
      AirlinePrefix: "020",
      AwbNumber: serial,
      Origin: "FRA",
      Destination: "JFK",
      Pieces: 10,
      WeightCode: "K",
      Weight: 250,
      Legs: [
        {
          CarrierCode: "LH",
          FlightNumber: "400",
          Date: local("FRA", STD).date,
          Origin: "FRA",
          Destination: "JFK",
          ScheduledDeparture: local("FRA", STD).jsonForm,
          ScheduledArrival: local("JFK", N + 7 * HOUR).jsonForm,
          IsRoadFeederService: false,
        },
      ],
    },
  });
  expect(booking.status, booking.text).toBe(200);
  const departed = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body: dep,
    contentType: "text/plain",
  });
  expect(departed.status, departed.text).toBe(200);
}

const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, 2500));

describe("e-mails a person reads", () => {
  it("the rule setting ShareLinkHours is validated: 400 naming it, nothing written", async () => {
    const before = await call(stack.url, "GET", RULES, { token: ownerToken });
    for (const [overrides, message] of [
      [{ ShareLinkHours: 0 }, /whole number of hours from 1 to 720/],
      [{ ShareLinkHours: 721 }, /whole number of hours from 1 to 720/],
      [{ ShareLinkHours: "24" }, /whole number of hours from 1 to 720/],
    ] as const) {
      const refused = await call(stack.url, "POST", RULES, { token: ownerToken, json: ruleBody(overrides) });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      const errors = (refused.body as { errors: Array<{ field: string; message: string }> }).errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]?.field).toBe("ShareLinkHours");
      expect(errors[0]?.message).toMatch(message);
    }
    const after = await call(stack.url, "GET", RULES, { token: ownerToken });
    expect(after.body).toEqual(before.body);
  });

  it("one e-mail per address and event, with verdict, timeline, share link, alerts link and a text part", async () => {
    // Two rules of the forwarder hear this DEP at the same address (not identical: different events).
    const first = await createRule({ Event: "DEP", ShareLinkHours: 24 });
    expect(first.ShareLinkHours).toBe(24);
    await confirmNotifyTo(stack.sesUrl, "ops@readable.example");
    const second = await createRule({
      Event: "DEP,ARR",
      NotifyTo: "OPS@readable.example",
      ShareLinkHours: 24,
    });
    // Default: a link to the signed-in app's route-map page.
    const plain = await createRule({ NotifyTo: "desk@readable.example" });
    expect(plain.ShareLinkHours).toBeNull();
    await confirmNotifyTo(stack.sesUrl, "desk@readable.example");
    // A missed-event alert: the RCS was due hours before the booking arrived.
    await createRule({
      NotifyTo: "missed@readable.example",
      Event: "RCS",
      EventAlert: false,
      MissedEventAlert: true,
    });
    await confirmNotifyTo(stack.sesUrl, "missed@readable.example");

    await shipLate();
    await waitFor(async () => (await emailsTo("ops@readable.example")).length >= 1, 30_000);
    await waitFor(async () => (await emailsTo("desk@readable.example")).length >= 1, 30_000);
    await waitFor(async () => (await emailsTo("missed@readable.example")).length >= 1, 30_000);
    await quietPeriod();

    const mails = await emailsTo("ops@readable.example");
    expect(mails.map((mail) => mail.subject)).toEqual([`AWB ${AWB} | MIL DEP | NTF Event`]);
    const [mail] = mails;
    const text = mail?.body.text ?? "";
    const html = mail?.body.html ?? "";
    // Both parts are there (SES Body.Text and Body.Html), saying the same things.
    const headline = "LH400 departed FRA 1 h 15 min after schedule · 15 min after plan: Ko";
    expect(text.split("\n")[0]).toBe(headline);
    expect(html).toContain(headline);
    expect(text).toContain(`AWB ${AWB} · FRA → JFK · 10 pieces · 250 K`);
    const depLine = text.split("\n").find((line) => line.startsWith("▶ Departed (DEP), FRA: "));
    expect(depLine).toMatch(
      /planned \d{1,2} \w{3} \d{2}:\d{2} CES?T · actual \d{1,2} \w{3} \d{2}:\d{2} CES?T · 1 h 15 min after schedule · 15 min after plan: Ko$/,
    );
    expect(text).toMatch(/^LH400 FRA → JFK \(scheduled .*CES?T → .*E[SD]T\)$/m);
    expect(text).toMatch(/^ {2}Arrived \(ARR\), JFK: planned .* E[SD]T · not reported · Planned$/m);
    expect(html).toMatch(FRA_ZONE);
    expect(html).toContain("1 h 15 min after schedule · 15 min after plan: Ko");

    const shareLine = text.split("\n").find((line) => line.startsWith("Route map (share link"));
    const shareUrl = /(https?:\/\/\S+\/app\/#\/shared\/([A-Za-z0-9_-]{43}))$/.exec(shareLine ?? "");
    expect(shareLine, text).toMatch(/no sign-in, valid until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(shareUrl?.[1]?.startsWith(`${stack.url}/app/#/shared/`)).toBe(true);
    expect(html).toContain(`href="${shareUrl?.[1]}"`);
    expect(text).toContain(`Manage your alerts: ${stack.url}/app/#/alerts`);
    expect(html).toContain(`href="${stack.url}/app/#/alerts"`);

    // The share link opens this one route map without signing in.
    const shared = await call(stack.url, "GET", `/shared/routemap/${shareUrl?.[2]}`);
    expect(shared.status, shared.text).toBe(200);
    expect(shared.text).toContain(serial);
    // And the forwarder sees it among the AWB's share links (revocable like any other).
    const links = await call(stack.url, "GET", `/ffw/service/routemap/${AWB}/share`, { token: ownerToken });
    expect(links.status, links.text).toBe(200);
    const details = [await deliveryDetail(first.Id), await deliveryDetail(second.Id)].filter(Boolean);
    expect(details, "one delivery for the two rules").toHaveLength(1);
    const linkId = /share link (\S+) valid until/.exec(details[0] ?? "")?.[1];
    expect(linkId).toBeDefined();
    const listedIds = links.body as { Items?: Array<{ Id: string }> } | Array<{ Id: string }>;
    expect(JSON.stringify(listedIds)).toContain(`"${linkId}"`);

    // Without ShareLinkHours: the signed-in app's route-map page.
    const [desk] = await emailsTo("desk@readable.example");
    expect(desk?.body.text).toContain(`Route map: ${stack.url}/app/#/routemap/020${serial}`);
    expect(desk?.body.html).toContain(`href="${stack.url}/app/#/routemap/020${serial}"`);

    // A missed-event alert says what is missing and when it was planned, in FRA's local time.
    const [missed] = await emailsTo("missed@readable.example");
    expect(missed?.subject).toBe(`AWB ${AWB} | MIL RCS | NTF Missed`);
    expect(missed?.body.text?.split("\n")[0]).toMatch(
      new RegExp(`^RCS of ${AWB} is missing: planned \\d{2}:\\d{2} CES?T at FRA$`),
    );
  });
});

/** The detail of the newest attempt of a rule's newest delivery. */
async function deliveryDetail(ruleId: number): Promise<string> {
  const listed = await call(stack.url, "GET", `${RULES}/${ruleId}/deliveries`, { token: ownerToken });
  expect(listed.status, listed.text).toBe(200);
  const [delivery] = (listed.body as { Items: Array<{ Attempts: Array<{ Detail: string }> }> }).Items;
  return delivery?.Attempts.at(-1)?.Detail ?? "";
}
