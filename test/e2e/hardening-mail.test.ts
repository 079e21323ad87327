/**
 * Mail an adversarial run sent to the local SMTP listener from a registered sender: 1,000 text
 * attachments, 3,000 nested multiparts, 5,000 empty parts, a 1 MB header line before a valid FSU. Each
 * used to be accepted (250) and then lost when the MIME parser threw. Now such a mail is still
 * accepted, as SES accepts it, but checked against the limits before anything parses it: it ends
 * refused in the carrier's inbound log with the limit as its reason, the sender gets a reply naming
 * it, and nothing of it is applied. Every mail the listener accepts, at the limits' edge too, ends
 * applied or refused in the log; only a mail over the size limit is refused at SMTP time (552).
 */
import { createTransport, type Transporter } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../adapters/pipeline/receiver.ts";
import { HOSTILE_MAILS, nestedMultiparts } from "../support/hostile-mail.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { local, MINUTE, minuteNow } from "./route-map-helpers.ts";

const GATEWAY = "gateway@lh-cargo.example";
const INBOX = "carriers@routemap.local";
const owner = tokens.forwarder("FWD1", "1234567", "0001");
const support = tokens.support();

let stack: RunningStack | undefined;
let smtp: Transporter | undefined;
const api = () => {
  if (!stack) throw new Error("the runner did not start");
  return stack;
};

beforeAll(async () => {
  stack = await startRunner();
  smtp = createTransport({ host: "127.0.0.1", port: stack.smtpPort, secure: false, ignoreTLS: true });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: support,
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true, InboundSenders: [GATEWAY] },
  });
  expect(put.status, put.text).toBe(200);
}, scaled(120_000));

afterAll(async () => {
  smtp?.close();
  await stack?.stop();
});

/** FWB naming the owner agent, then a DEP 10 minutes ago, for one AWB (serial with check digit). */
function messages(serial: string): string {
  const t = local("FRA", minuteNow() - 10 * MINUTE);
  return [
    "FWB/16",
    `020-${serial}FRAJFK/T10K250.0MC1.5`,
    "AGT//1234567/0001",
    "/ACME FORWARDING",
    "FSU/13",
    `020-${serial}FRAJFK/T10K250.0`,
    `DEP/LH400/${t.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}`,
    "",
  ].join("\r\n");
}

/** Sends raw MIME from the registered sender: the SMTP answer (250, or the refusal's code and text). */
async function send(raw: string): Promise<{ code: number; text: string }> {
  if (!smtp) throw new Error("no SMTP client");
  try {
    const info = await smtp.sendMail({ envelope: { from: GATEWAY, to: [INBOX] }, raw });
    return { code: 250, text: String(info.response) };
  } catch (error) {
    const failure = error as { responseCode?: number; response?: string; message: string };
    return { code: failure.responseCode ?? 0, text: failure.response ?? failure.message };
  }
}

interface LogEntry {
  Subject: string;
  Outcome: string;
  Reason: string | null;
  Applied: Array<{ AwbNumber: string }>;
}

async function logEntry(subject: string): Promise<LogEntry> {
  let found: LogEntry | undefined;
  await waitFor(async () => {
    const listed = await call(api().url, "GET", "/support/carriers/020/inbound", { token: support });
    found = (listed.body as { Items?: LogEntry[] }).Items?.find((entry) => entry.Subject === subject);
    return found !== undefined;
  }, scaled(60_000));
  if (!found) throw new Error(`no log entry for ${subject}`);
  return found;
}

const routeMapStatus = async (serial: string) =>
  (await call(api().url, "GET", `/ffw/service/routemap/020${serial}`, { token: owner })).status;

/** The reply the SES emulator holds for the registered sender under this subject. */
async function replyTo(subject: string): Promise<{ subject: string; body: { text?: string } }> {
  let reply: { subject: string; body: { text?: string } } | undefined;
  await waitFor(async () => {
    const store = (await (await fetch(`${api().sesUrl}/store`)).json()) as {
      emails: Array<{ subject: string; destination: { to: string[] }; body: { text?: string } }>;
    };
    reply = store.emails.find(
      (email) => email.destination.to.includes(GATEWAY) && email.subject === `Not placed: ${subject}`,
    );
    return reply !== undefined;
  }, scaled(60_000));
  if (!reply) throw new Error(`no reply for ${subject}`);
  return reply;
}

describe("a registered sender's mail over the limits", () => {
  const serials = ["11111111", "22222222", "33333333", "44444444"];
  const LIMIT_NAMED = /more than 100 MIME parts|nested more than 10 deep|header line is longer/;

  it.each(Object.entries(HOSTILE_MAILS).map(([name, build], i) => [name, build, serials[i] ?? ""] as const))(
    "with %s is accepted, logged refused naming the limit, answered, and nothing of it is applied",
    async (name, build, serial) => {
      const subject = `hostile ${name}`;
      const answer = await send(build(`"LH Cargo" <${GATEWAY}>`, subject, messages(serial)));
      expect(answer.code, answer.text).toBe(250);
      const entry = await logEntry(subject);
      expect(entry.Outcome).toBe("refused");
      expect(entry.Reason).toMatch(LIMIT_NAMED);
      expect(entry.Applied).toEqual([]);
      const reply = await replyTo(subject);
      expect(reply.body.text).toMatch(LIMIT_NAMED);
      expect(await routeMapStatus(serial)).toBe(404);
    },
    90_000,
  );

  it(
    "larger than 10 MB is refused at SMTP time (552)",
    async () => {
      const raw = `From: ${GATEWAY}\r\nSubject: huge\r\n\r\n${"A".repeat(998)}\r\n`.repeat(10_600);
      const answer = await send(raw);
      expect(answer.code, answer.text).toBe(552);
    },
    scaled(60_000),
  );

  it(
    "is not the end of the listener: mails at the limits' edge are accepted and each ends in the log",
    async () => {
      const edge = {
        "99 attachments": [
          `From: ${GATEWAY}`,
          "Subject: edge parts",
          'Content-Type: multipart/mixed; boundary="p"',
          "",
          ...Array.from({ length: 98 }, (_, i) => [
            "--p",
            `Content-Type: image/png; name=x${i}.png`,
            "",
            "x",
          ]).flat(),
          "--p",
          "Content-Type: text/plain",
          "",
          messages("55555555"),
          "--p--",
          "",
        ].join("\r\n"),
        "9 levels": nestedMultiparts(GATEWAY, "edge depth", messages("66666666"), 9),
        "a 7 KB header line": [
          `From: ${GATEWAY}`,
          "Subject: edge header",
          `X-Padding: ${"A".repeat(7 * 1024)}`,
          "",
          messages("77777770"),
        ].join("\r\n"),
      };
      const subjects = {
        "99 attachments": "edge parts",
        "9 levels": "edge depth",
        "a 7 KB header line": "edge header",
      };
      for (const [name, raw] of Object.entries(edge)) {
        const answer = await send(raw);
        expect(answer.code, `${name}: ${answer.text}`).toBe(250);
      }
      for (const [name, serial] of [
        ["99 attachments", "55555555"],
        ["9 levels", "66666666"],
        ["a 7 KB header line", "77777770"],
      ] as const) {
        const entry = await logEntry(subjects[name]);
        expect(entry.Outcome, `${name}: ${entry.Reason}`).toBe("applied");
        expect(entry.Applied.map((applied) => applied.AwbNumber)).toEqual([`020-${serial}`, `020-${serial}`]);
        expect(await routeMapStatus(serial)).toBe(200);
      }
    },
    scaled(120_000),
  );
});
