/**
 * Cargo-IMP by e-mail end to end, through the real local runner: support registers
 * a carrier's InboundSenders; a mail sent with nodemailer to the local SMTP listener from that sender
 * changes the route map exactly as the same text posted to /carrier/messages does; a mail from an
 * unregistered sender changes nothing and is logged for support; a message that cannot be placed is
 * answered by an error e-mail naming the line (read from the SES emulator) and shows in the carrier's
 * inbound log.
 */
import { createTransport, type Transporter } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { local, MINUTE, minuteNow } from "./route-map-helpers.ts";

const GATEWAY = "gateway@lh-cargo.example";
const INBOX = "carriers@routemap.local";
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const support = tokens.support();
const carrier = tokens.carrier("020");

let stack: RunningStack;
let smtp: Transporter;

beforeAll(async () => {
  stack = await startRunner();
  smtp = createTransport({ host: "127.0.0.1", port: stack.smtpPort, secure: false, ignoreTLS: true });
}, scaled(90_000));

afterAll(async () => {
  smtp?.close();
  await stack?.stop();
});

/**
 * FWB naming the owner agent, then a DEP 10 minutes before `at` (default: now), for one AWB (serial
 * with check digit). Texts that are compared pass one `at`: built a minute apart they would differ.
 */
function messages(serial: string, at = minuteNow()): string {
  const t = local("FRA", at - 10 * MINUTE);
  return [
    "FWB/16",
    `020-${serial}FRAJFK/T10K250.0MC1.5`,
    "AGT//1234567/0001",
    "/ACME FORWARDING",
    "FSU/13",
    `020-${serial}FRAJFK/T10K250.0`,
    `DEP/LH400/${t.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}`,
    "",
  ].join("\n");
}

interface LogEntry {
  MessageId: string;
  Sender: string;
  Subject: string;
  CarrierPrefix: string | null;
  Outcome: string;
  Reason: string | null;
  Line: number | null;
  Applied: Array<{ AwbNumber: string; Changed: boolean; Events: string[] }>;
  Replied: boolean;
}

async function inboundLog(path: string): Promise<LogEntry[]> {
  const listed = await call(stack.url, "GET", path, { token: support });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { Items: LogEntry[] }).Items;
}

/** Waits for the log entry of the mail with this subject (the function runs after the SMTP 250). */
async function logEntry(path: string, subject: string): Promise<LogEntry> {
  let found: LogEntry | undefined;
  await waitFor(async () => {
    found = (await inboundLog(path)).find((entry) => entry.Subject === subject);
    return found !== undefined;
  }, scaled(20_000));
  if (!found) throw new Error(`no log entry for ${subject}`);
  return found;
}

/**
 * Receipt times (the FWB's actual time, LastUpdate) differ between two ingests by the seconds between
 * them: every time at or after `since` (the carrier's own times are 10 minutes older) becomes
 * "<received>".
 */
function withoutReceiptTimes(value: unknown, since: number): unknown {
  const recent = (text: unknown) => typeof text === "string" && /Z$/.test(text) && Date.parse(text) >= since;
  if (recent(value)) return "<received>";
  if (Array.isArray(value)) return value.map((item) => withoutReceiptTimes(item, since));
  if (value === null || typeof value !== "object") return value;
  if (recent((value as { Utc?: unknown }).Utc)) return "<received>";
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, withoutReceiptTimes(item, since)]),
  );
}

/** The route map as its owner reads it, without the AWB number and receipt times (to compare two AWBs). */
async function routeMapWithoutAwb(serial: string, since: number): Promise<unknown> {
  const read = await call(stack.url, "GET", `/ffw/service/routemap/020${serial}`, { token: owner });
  expect(read.status, read.text).toBe(200);
  const text = read.text.replaceAll(`020${serial}`, "AWB").replaceAll(`020-${serial}`, "AWB");
  return withoutReceiptTimes(JSON.parse(text.replaceAll(`"${serial}"`, '"AWB"')), since);
}

describe("InboundSenders on the carrier", () => {
  it("are stored lower-cased, shown by GET, and an address belongs to one carrier only", async () => {
    const put = await call(stack.url, "PUT", "/support/carriers/020", {
      token: support,
      json: {
        Name: "Lufthansa Cargo",
        QualityProgram: true,
        Xtd: true,
        InboundSenders: ["Gateway@LH-Cargo.example"],
      },
    });
    expect(put.status, put.text).toBe(200);
    expect((put.body as { InboundSenders: string[] }).InboundSenders).toEqual([GATEWAY]);
    const got = await call(stack.url, "GET", "/support/carriers/020", { token: support });
    expect((got.body as { InboundSenders: string[] }).InboundSenders).toEqual([GATEWAY]);

    const taken = await call(stack.url, "PUT", "/support/carriers/057", {
      token: support,
      json: { Name: "Air France Cargo", QualityProgram: true, Xtd: true, InboundSenders: [GATEWAY] },
    });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.headers.get("content-type")).toContain("application/problem+json");
    expect(JSON.stringify(taken.body)).toContain("InboundSenders");
    expect((taken.body as { detail: string }).detail).toBe(
      `${GATEWAY} is already an inbound sender of carrier 020; remove it there first.`,
    );
    expect((await call(stack.url, "GET", "/support/carriers/057", { token: support })).status).toBe(404);

    // Removed from 020, the address is free for 057.
    const desk = "desk@lh-cargo.example";
    const withDesk = {
      Name: "Lufthansa Cargo",
      QualityProgram: true,
      Xtd: true,
      InboundSenders: [GATEWAY, desk],
    };
    expect(
      (await call(stack.url, "PUT", "/support/carriers/020", { token: support, json: withDesk })).status,
    ).toBe(200);
    const af = { Name: "Air France Cargo", QualityProgram: true, Xtd: true, InboundSenders: [desk] };
    expect((await call(stack.url, "PUT", "/support/carriers/057", { token: support, json: af })).status).toBe(
      409,
    );
    const without = { ...withDesk, InboundSenders: [GATEWAY] };
    expect(
      (await call(stack.url, "PUT", "/support/carriers/020", { token: support, json: without })).status,
    ).toBe(200);
    const claimed = await call(stack.url, "PUT", "/support/carriers/057", { token: support, json: af });
    expect(claimed.status, claimed.text).toBe(200);
    expect((claimed.body as { InboundSenders: string[] }).InboundSenders).toEqual([desk]);

    const invalid = await call(stack.url, "PUT", "/support/carriers/057", {
      token: support,
      json: { Name: "Air France Cargo", QualityProgram: true, Xtd: true, InboundSenders: ["not an address"] },
    });
    expect(invalid.status, invalid.text).toBe(400);
    expect(JSON.stringify(invalid.body)).toContain("InboundSenders");
  });
});

describe("Cargo-IMP by e-mail", () => {
  it("a registered sender's mail changes the route map exactly as the same text posted by the carrier", async () => {
    const mailed = "22222222";
    const posted = "33333333";
    const since = Date.now() - 1_000;
    const at = minuteNow();
    await smtp.sendMail({
      from: "Gateway@LH-Cargo.example",
      to: INBOX,
      subject: "FSU 22222222",
      text: messages(mailed, at),
    });
    const entry = await logEntry("/support/carriers/020/inbound", "FSU 22222222");
    expect(entry).toMatchObject({
      Sender: GATEWAY,
      CarrierPrefix: "020",
      Outcome: "applied",
      Replied: false,
    });
    expect(entry.Applied).toEqual([
      { AwbNumber: "020-22222222", Changed: true, Events: ["FWB"] },
      { AwbNumber: "020-22222222", Changed: true, Events: ["DEP"] },
    ]);

    const control = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      body: messages(posted, at),
      contentType: "text/plain",
    });
    expect(control.status, control.text).toBe(200);
    expect(await routeMapWithoutAwb(mailed, since)).toEqual(await routeMapWithoutAwb(posted, since));

    // Posting the mailed text again changes nothing: the mail applied exactly these messages.
    const again = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      body: messages(mailed, at),
      contentType: "text/plain",
    });
    expect((again.body as { Applied: Array<{ Changed: boolean }> }).Applied.map((a) => a.Changed)).toEqual([
      false,
      false,
    ]);
  });

  it("reads the message from a text attachment when the body is a cover note", async () => {
    await smtp.sendMail({
      from: GATEWAY,
      to: INBOX,
      subject: "attached 55555555",
      text: "Please find the status message attached.",
      attachments: [{ filename: "fsu.txt", content: messages("55555555"), contentType: "text/plain" }],
    });
    const entry = await logEntry("/support/carriers/020/inbound", "attached 55555555");
    expect(entry.Outcome).toBe("applied");
    expect(entry.Applied.map((a) => a.AwbNumber)).toEqual(["020-55555555", "020-55555555"]);
  });

  it("an unregistered sender's mail changes nothing and is logged for support", async () => {
    await smtp.sendMail({
      from: "someone@elsewhere.example",
      to: INBOX,
      subject: "FSU 44444444",
      text: messages("44444444"),
    });
    const entry = await logEntry("/support/inbound/unknown-senders", "FSU 44444444");
    expect(entry).toMatchObject({
      Sender: "someone@elsewhere.example",
      CarrierPrefix: null,
      Outcome: "unknown-sender",
      Applied: [],
      Replied: false,
    });
    const read = await call(stack.url, "GET", "/ffw/service/routemap/02044444444", { token: owner });
    expect(read.status).toBe(404);
    expect((await inboundLog("/support/carriers/020/inbound")).map((e) => e.Subject)).not.toContain(
      "FSU 44444444",
    );
  });

  it("a message that cannot be placed is answered by an error e-mail naming the line, and logged", async () => {
    const text = "FSU/13\n020-66666666FRAJFK/T10K250.0\nDEP/LH400/31FEB/FRAJFK/T10K250.0/A1000\n";
    await smtp.sendMail({ from: GATEWAY, to: INBOX, subject: "bad FSU", text });
    const entry = await logEntry("/support/carriers/020/inbound", "bad FSU");
    expect(entry).toMatchObject({ Outcome: "refused", Line: 3, Replied: true, Applied: [] });
    expect(entry.Reason).toBeTruthy();

    let reply: { subject: string; body: { text?: string } } | undefined;
    await waitFor(async () => {
      const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as {
        emails: Array<{ subject: string; destination: { to: string[] }; body: { text?: string } }>;
      };
      reply = store.emails.find((email) => email.destination.to.includes(GATEWAY));
      return reply !== undefined;
    }, scaled(10_000));
    expect(reply?.subject).toBe("Not placed: bad FSU");
    expect(reply?.body.text).toContain("Line 3 of your message");
    expect(reply?.body.text).toContain("DEP/LH400/31FEB/FRAJFK");
    const read = await call(stack.url, "GET", "/ffw/service/routemap/02066666666", { token: owner });
    expect(read.status).toBe(404);
  });

  it("lists the carrier's log newest first, a page at a time", async () => {
    const first = await call(stack.url, "GET", "/support/carriers/020/inbound?Limit=1", { token: support });
    expect(first.status, first.text).toBe(200);
    const page = first.body as { Items: LogEntry[]; NextCursor: string | null };
    expect(page.Items).toHaveLength(1);
    expect(page.Items[0]?.Subject).toBe("bad FSU");
    expect(page.NextCursor).not.toBeNull();
    const next = await call(
      stack.url,
      "GET",
      `/support/carriers/020/inbound?Limit=1&Cursor=${page.NextCursor}`,
      { token: support },
    );
    expect((next.body as { Items: LogEntry[] }).Items[0]?.Subject).not.toBe("bad FSU");
    const unknown = await call(stack.url, "GET", "/support/carriers/999/inbound", { token: support });
    expect(unknown.status).toBe(404);
  });

  it("a disabled carrier's mail is refused and changes nothing until support enables it again", async () => {
    expect((await call(stack.url, "POST", "/support/carriers/020/disable", { token: support })).status).toBe(
      200,
    );
    await smtp.sendMail({ from: GATEWAY, to: INBOX, subject: "FSU 77777770", text: messages("77777770") });
    const entry = await logEntry("/support/carriers/020/inbound", "FSU 77777770");
    expect(entry).toMatchObject({
      Outcome: "refused",
      Reason: "carrier disabled",
      Replied: false,
      Applied: [],
    });
    expect((await call(stack.url, "GET", "/ffw/service/routemap/02077777770", { token: owner })).status).toBe(
      404,
    );
    expect((await call(stack.url, "POST", "/support/carriers/020/enable", { token: support })).status).toBe(
      200,
    );
  });
});
