/**
 * Cargo-IMP by e-mail, the adapters around the core: mailparser reads a raw MIME mail into what the
 * ingest reads (From lower-cased, subject, text body, text attachments only), and the local SMTP
 * listener's event has the shape of SES's Lambda action (verdicts PASS, the message id naming the
 * stored mail). A mail over the limits (size, parts, nesting, header lines), or one mailparser throws
 * on, is refused unread with the limit as its reason, its sender and subject still read.
 */
import fc from "fast-check";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { sesEventOf } from "../../bin/local/inbound-mail.ts";
import { addressesOf, decodeWords, scanMime } from "../../functions/adapters/mime-structure.ts";
import { parseReceivedMail } from "../../functions/adapters/received-mail-store.ts";
import { INBOUND_MAIL_LIMITS } from "../../functions/contracts/inbound-mail.ts";
import { emptyParts, HOSTILE_MAILS, megabyteHeaderLine, nestedMultiparts } from "../support/hostile-mail.ts";
import { scaled } from "../support/time.ts";

const RAW = [
  'From: "LH Cargo Gateway" <Gateway@LH-Cargo.example>',
  "To: carriers@routemap.local",
  "Subject: FSU 020-12345675",
  "Message-ID: <abc@lh-cargo.example>",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="b1"',
  "",
  "--b1",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Please find the message attached.",
  "--b1",
  "Content-Type: text/plain; name=fsu.txt",
  "Content-Disposition: attachment; filename=fsu.txt",
  "Content-Transfer-Encoding: base64",
  "",
  Buffer.from("FSU/13\r\n020-12345675FRAJFK/T10K250.0\r\n").toString("base64"),
  "--b1",
  "Content-Type: application/pdf; name=label.pdf",
  "Content-Disposition: attachment; filename=label.pdf",
  "Content-Transfer-Encoding: base64",
  "",
  Buffer.from("%PDF-1.4").toString("base64"),
  "--b1--",
  "",
].join("\r\n");

describe("parseReceivedMail", () => {
  it("reads the From address lower-cased, the subject, the body and only the text attachments", async () => {
    const mail = await parseReceivedMail(Buffer.from(RAW));
    expect(mail.sender).toBe("gateway@lh-cargo.example");
    expect(mail.subject).toBe("FSU 020-12345675");
    expect(mail.body?.trim()).toBe("Please find the message attached.");
    expect(mail.attachments).toEqual([
      { name: "fsu.txt", text: "FSU/13\r\n020-12345675FRAJFK/T10K250.0\r\n" },
    ]);
  });
});

describe("the local SMTP listener's event", () => {
  it("has SES's Lambda-action shape, every verdict PASS", async () => {
    const at = new Date("2026-03-13T10:00:00.000Z");
    const event = await sesEventOf(
      Buffer.from(RAW),
      "m-1",
      { mailFrom: "bounce@lh-cargo.example", recipients: ["carriers@routemap.local"] },
      at,
    );
    const record = event.Records[0];
    expect(record?.eventSource).toBe("aws:ses");
    expect(record?.ses.mail).toMatchObject({
      messageId: "m-1",
      source: "bounce@lh-cargo.example",
      timestamp: "2026-03-13T10:00:00.000Z",
      destination: ["carriers@routemap.local"],
      commonHeaders: { from: ["Gateway@LH-Cargo.example"], subject: "FSU 020-12345675" },
    });
    expect(record?.ses.receipt).toMatchObject({
      recipients: ["carriers@routemap.local"],
      spamVerdict: { status: "PASS" },
      virusVerdict: { status: "PASS" },
      spfVerdict: { status: "PASS" },
      dkimVerdict: { status: "PASS" },
      action: { type: "Lambda", invocationType: "Event" },
    });
  });
});

const FSU = "FSU/13\r\n020-12345675FRAJFK/T10K250.0\r\nDEP/LH400/14MAR/FRAJFK/T10K250.0/A1341\r\n";
const SENDER = '"LH Cargo Gateway" <Gateway@LH-Cargo.example>';

describe("a mail over the limits, or one the parser cannot read", () => {
  it.each(Object.entries(HOSTILE_MAILS))(
    "with %s is refused unread, naming the limit, its sender and subject still read",
    async (name, build) => {
      const raw = Buffer.from(build(SENDER, `hostile ${name}`, FSU));
      // What the parser does with it: it throws.
      await expect(simpleParser(raw)).rejects.toThrow(/Max allowed child nodes exceeded|Max header size/);
      const mail = await parseReceivedMail(raw);
      expect(mail).toMatchObject({
        sender: "gateway@lh-cargo.example",
        subject: `hostile ${name}`,
        body: null,
        attachments: [],
      });
      expect(mail.refusal).toMatch(/more than 100 MIME parts|nested more than 10 deep|header line is longer/);
    },
  );

  it("refuses each limit by name: size, parts, depth, header line, header block, attached messages", () => {
    const limits = { ...INBOUND_MAIL_LIMITS, maxBytes: 64 * 1024, maxParts: 5, maxDepth: 3 };
    const scan = (raw: string) => scanMime(Buffer.from(raw), limits).refusal;
    expect(scan(RAW)).toBeNull();
    expect(scan(`${RAW}${"x".repeat(70_000)}`)).toBe("the e-mail is larger than 64 KB");
    expect(scan(emptyParts(SENDER, "s", FSU))).toBe("it has more than 5 MIME parts");
    expect(scan(nestedMultiparts(SENDER, "s", FSU, 4))).toBe("its parts are nested more than 3 deep");
    expect(scan(nestedMultiparts(SENDER, "s", FSU, 3))).toBeNull();
    const longLine = `From: a@b.example\r\nX-Long: ${"A".repeat(9000)}\r\n\r\nbody\r\n`;
    expect(scanMime(Buffer.from(longLine), INBOUND_MAIL_LIMITS).refusal).toBe(
      "a header line is longer than 8 KB",
    );
    const manyLines = `From: a@b.example\r\n${"X-Pad: y\r\n".repeat(1100)}\r\nbody\r\n`;
    expect(scanMime(Buffer.from(manyLines), INBOUND_MAIL_LIMITS).refusal).toBe(
      "the header of a part is larger than 64 KB",
    );
    // A chain of attached messages counts a part (and a level) each.
    const chain = (depth: number) =>
      `${"Content-Type: message/rfc822\r\n\r\n".repeat(depth)}From: a@b.example\r\n\r\nbody\r\n`;
    expect(scanMime(Buffer.from(chain(2)), INBOUND_MAIL_LIMITS).refusal).toBeNull();
    expect(scanMime(Buffer.from(chain(200)), INBOUND_MAIL_LIMITS).refusal).not.toBeNull();
  });

  it(
    "never lets through a mail the parser throws on (random shapes around the limits)",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            parts: fc.integer({ min: 0, max: 1_200 }),
            depth: fc.integer({ min: 1, max: 40 }),
            headerLine: fc.integer({ min: 10, max: 1_100_000 }),
            headerLines: fc.integer({ min: 0, max: 20_000 }),
          }),
          async ({ parts, depth, headerLine, headerLines }) => {
            const lines = [
              `From: ${SENDER}`,
              `X-Line: ${"L".repeat(headerLine)}`,
              ...Array.from({ length: headerLines }, (_, i) => `X-${i}: v`),
              'Content-Type: multipart/mixed; boundary="top"',
              "",
            ];
            for (let i = 0; i < parts; i++) lines.push("--top", "Content-Type: text/plain", "", `part ${i}`);
            lines.push("--top", nestedMultiparts(SENDER, "inner", FSU, depth), "--top--", "");
            const raw = Buffer.from(lines.join("\r\n"));
            const mail = await parseReceivedMail(raw);
            if (mail.refusal === null) await expect(simpleParser(raw)).resolves.toBeDefined();
            else expect(mail.body).toBeNull();
          },
        ),
        { numRuns: 25 },
      );
    },
    scaled(120_000),
  );

  it("reads addresses and encoded subjects the way the event and the log need them", () => {
    expect(addressesOf('"Cargo, Gateway" <Gateway@LH-Cargo.example>, desk@lh.example (desk)')).toEqual([
      "Gateway@LH-Cargo.example",
      "desk@lh.example",
    ]);
    expect(addressesOf("undisclosed-recipients:;")).toEqual([]);
    expect(decodeWords("=?utf-8?B?RlNVIMOkw7Y=?= =?ISO-8859-1?Q?_=FC?=")).toBe("FSU äö ü");
    expect(decodeWords("=?x-unknown?Q?abc?=")).toBe("=?x-unknown?Q?abc?=");
  });
});

describe("the local SMTP listener's event of a mail the parser cannot read", () => {
  it("is built from the header scan, never throwing", async () => {
    const raw = Buffer.from(megabyteHeaderLine(SENDER, "big header", FSU));
    const event = await sesEventOf(
      raw,
      "m-2",
      { mailFrom: "bounce@lh-cargo.example", recipients: ["carriers@routemap.local"] },
      new Date("2026-03-13T10:00:00.000Z"),
    );
    expect(event.Records[0]?.ses.mail.commonHeaders).toMatchObject({
      from: ["Gateway@LH-Cargo.example"],
      subject: "big header",
    });
    // The 1 MB line is not carried over into the event.
    const headers = event.Records[0]?.ses.mail.headers ?? [];
    expect(headers.map((header) => header.name)).toContain("Subject");
    expect(JSON.stringify(headers).length).toBeLessThan(11 * 1024);
  });
});
