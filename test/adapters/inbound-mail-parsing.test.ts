/**
 * Cargo-IMP by e-mail, the adapters around the core: mailparser reads a raw MIME mail into what the
 * ingest reads (From lower-cased, subject, text body, text attachments only), and the local SMTP
 * listener's event has the shape of SES's Lambda action (verdicts PASS, the message id naming the
 * stored mail).
 */
import { describe, expect, it } from "vitest";
import { sesEventOf } from "../../bin/local/inbound-mail.ts";
import { parseReceivedMail } from "../../functions/adapters/received-mail-store.ts";

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
