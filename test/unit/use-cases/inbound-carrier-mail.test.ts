/**
 * Cargo-IMP by e-mail, the core: the verdict checks, which text of a mail is the
 * carrier's, and the use case over memory adapters: a registered sender's mail goes through the same
 * ingest as POST /carrier/messages; unknown senders and failing verdicts change nothing and are
 * logged without a reply; a message the ingest refuses is logged and answered naming the line.
 */
import { describe, expect, it } from "vitest";
import type { CarrierSettings } from "../../../functions/core/carriers.ts";
import {
  carrierTextOf,
  type InboundMail,
  replyToUnplaceable,
  verdictRefusal,
} from "../../../functions/core/inbound-mail.ts";
import type { InboundMailEntry } from "../../../functions/core/ports/inbound-mail.ts";
import type { EmailMessage } from "../../../functions/core/ports/notifications.ts";
import type { Tenant } from "../../../functions/core/tenants/tenants.ts";
import { inboundCarrierMail } from "../../../functions/core/use-cases/inbound-carrier-mail.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";

const T0 = "2026-03-13T10:00:00.000Z";
const AWB = { prefix: "020", serial: "12345675" };
const FWB = "FWB/16\n020-12345675HAJJFK/T10K250.0MC1.5\nAGT//1234567/0001\n/ACME FORWARDING\n";
const GATEWAY = "gateway@lh-cargo.example";
const PASS = { spam: "PASS", virus: "PASS", spf: "PASS", dkim: "PASS" };

function mail(overrides: Partial<InboundMail> = {}): InboundMail {
  return {
    messageId: "m-1",
    sender: GATEWAY,
    subject: "FWB 020-12345675",
    receivedAt: T0,
    body: FWB,
    attachments: [],
    verdicts: PASS,
    ...overrides,
  };
}

function setup(senders: readonly string[] = [GATEWAY]) {
  const settings: CarrierSettings = {
    airlinePrefix: "020",
    name: "Lufthansa Cargo",
    qualityProgram: true,
    xtd: true,
    updatedAt: T0,
    inboundSenders: senders,
  };
  const logged: InboundMailEntry[] = [];
  let enabled = true;
  const sent: EmailMessage[] = [];
  const deps = {
    routeMaps: memoryRouteMapRepository(),
    carriers: { get: async (prefix: string) => (prefix === "020" ? settings : null) },
    backoff: async () => undefined,
    tenants: {
      getTenant: async () =>
        ({ kind: "carrier", carrierPrefix: "020", enabled, createdAt: T0, updatedAt: T0 }) as Tenant,
    },
    senders: { carrierOf: async (address: string) => (senders.includes(address) ? "020" : null) },
    inboundLog: {
      record: async (entry: InboundMailEntry) => {
        if (logged.some((e) => e.messageId === entry.messageId)) return "duplicate" as const;
        logged.push(entry);
        return "recorded" as const;
      },
      list: async () => ({ items: [...logged].reverse(), next: null }),
    },
    email: {
      send: async (message: EmailMessage) => {
        sent.push(message);
        return { kind: "sent" as const, messageId: `r-${sent.length}`, latencyMs: 1 };
      },
    },
  };
  return {
    deps,
    logged,
    sent,
    disable: () => {
      enabled = false;
    },
  };
}

describe("verdictRefusal", () => {
  it("trusts a mail only when spam and virus pass and SPF or DKIM passes without the other failing", () => {
    expect(verdictRefusal(PASS)).toBeNull();
    expect(verdictRefusal({ ...PASS, dkim: "GRAY" })).toBeNull();
    expect(verdictRefusal({ ...PASS, spf: "GRAY" })).toBeNull();
    expect(verdictRefusal({ ...PASS, spam: "FAIL" })).toBe("spam verdict FAIL");
    expect(verdictRefusal({ ...PASS, spam: "GRAY" })).toBe("spam verdict GRAY");
    expect(verdictRefusal({ ...PASS, virus: "PROCESSING_FAILED" })).toBe("virus verdict PROCESSING_FAILED");
    expect(verdictRefusal({ ...PASS, spf: "FAIL" })).toBe("SPF verdict FAIL");
    expect(verdictRefusal({ ...PASS, dkim: "FAIL" })).toBe("DKIM verdict FAIL");
    expect(verdictRefusal({ ...PASS, spf: "GRAY", dkim: "PROCESSING_FAILED" })).toBe(
      "neither SPF (GRAY) nor DKIM (PROCESSING_FAILED) passed",
    );
    expect(verdictRefusal({ ...PASS, spf: "DISABLED", dkim: "DISABLED" })).not.toBeNull();
  });
});

describe("carrierTextOf", () => {
  it("takes the text attachments when there are any, else the body; CRLF as LF; blank is none", () => {
    expect(carrierTextOf({ body: "FSU/13\r\nX\r\n", attachments: [] })).toBe("FSU/13\nX\n");
    expect(
      carrierTextOf({
        body: "Please find attached.",
        attachments: [
          { name: "a.txt", text: "FSU/13\nA" },
          { name: "b.txt", text: "FSU/13\nB" },
        ],
      }),
    ).toBe("FSU/13\nA\nFSU/13\nB");
    expect(carrierTextOf({ body: "  \n", attachments: [{ name: null, text: " " }] })).toBeNull();
    expect(carrierTextOf({ body: null, attachments: [] })).toBeNull();
  });

  it("replies naming the line and quoting it, escaped in the HTML part", () => {
    const reply = replyToUnplaceable({ subject: "FSU <x>", receivedAt: T0 }, "FSU/13\nDEP/<bad>\n", {
      line: 2,
      reason: "expected a flight",
    });
    expect(reply.subject).toBe("Not placed: FSU <x>");
    expect(reply.text).toContain("Line 2 of your message");
    expect(reply.text).toContain("  DEP/<bad>");
    expect(reply.html).toContain("DEP/&lt;bad&gt;");
    expect(reply.html).not.toContain("<bad>");
  });
});

describe("inboundCarrierMail", () => {
  it("applies a registered sender's text exactly as POST /carrier/messages does, and logs it", async () => {
    const { deps, logged, sent } = setup();
    const result = await inboundCarrierMail(deps, mail({ sender: "Gateway@LH-Cargo.example" }));
    expect(result.entry).toMatchObject({
      carrierPrefix: "020",
      outcome: "applied",
      reason: null,
      replied: false,
    });
    expect(result.entry.applied).toEqual([{ awb: AWB, changed: true, events: ["FWB"] }]);
    expect(sent).toEqual([]);
    expect(logged).toHaveLength(1);

    // The same text posted by the carrier to a fresh store gives the same route map.
    const control = setup();
    await ingestCarrierMessage(control.deps, {
      carrierPrefix: "020",
      contentType: "text/plain",
      body: FWB,
      now: T0,
    });
    expect((await deps.routeMaps.get(AWB))?.state).toEqual((await control.deps.routeMaps.get(AWB))?.state);
  });

  it("logs an unknown sender in the unknown senders' log, changes nothing and never answers", async () => {
    const { deps, logged, sent } = setup();
    const result = await inboundCarrierMail(deps, mail({ sender: "someone@elsewhere.example" }));
    expect(result.entry).toMatchObject({ carrierPrefix: null, outcome: "unknown-sender", replied: false });
    expect(await deps.routeMaps.get(AWB)).toBeNull();
    expect(deps.routeMaps.operations.write ?? 0).toBe(0);
    expect(logged).toHaveLength(1);
    expect(sent).toEqual([]);
  });

  it("treats a sender whose carrier no longer lists it as unknown (the lookup item alone is not enough)", async () => {
    const { deps } = setup([]);
    deps.senders.carrierOf = async () => "020";
    const result = await inboundCarrierMail(deps, mail());
    expect(result.entry.outcome).toBe("unknown-sender");
    expect(deps.routeMaps.operations.write ?? 0).toBe(0);
  });

  it("refuses a registered sender's mail whose verdicts fail: logged on the carrier, nothing changed, no reply", async () => {
    const { deps, sent } = setup();
    const result = await inboundCarrierMail(deps, mail({ verdicts: { ...PASS, spf: "FAIL" } }));
    expect(result.entry).toMatchObject({
      carrierPrefix: "020",
      outcome: "refused",
      reason: "SPF verdict FAIL",
    });
    expect(deps.routeMaps.operations.write ?? 0).toBe(0);
    expect(sent).toEqual([]);
  });

  it("answers a message it cannot place with an error e-mail naming the line, and logs it refused", async () => {
    const { deps, logged, sent } = setup();
    const body = `${FWB}FSU/13\n020-12345675HAJJFK/T10K250.0\nDEP/LH400/31FEB/HAJJFK/T10K250.0/A1000\n`;
    const result = await inboundCarrierMail(deps, mail({ body }));
    expect(result.entry.outcome).toBe("refused");
    expect(result.entry.line).toBe(7);
    expect(result.entry.replied).toBe(true);
    expect(deps.routeMaps.operations.write ?? 0).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe(GATEWAY);
    expect(sent[0]?.text).toContain("Line 7 of your message");
    expect(sent[0]?.text).toContain("DEP/LH400/31FEB/HAJJFK");
    expect(logged[0]?.reason).toBe(result.entry.reason);
  });

  it("refuses a disabled carrier's mail: logged, nothing changed, no reply", async () => {
    const { deps, sent, disable } = setup();
    disable();
    const result = await inboundCarrierMail(deps, mail());
    expect(result.entry).toMatchObject({
      carrierPrefix: "020",
      outcome: "refused",
      reason: "carrier disabled",
    });
    expect(deps.routeMaps.operations.write ?? 0).toBe(0);
    expect(sent).toEqual([]);
  });

  it("answers a mail without text, and sends no second reply when the same mail is handled again", async () => {
    const { deps, sent } = setup();
    const first = await inboundCarrierMail(deps, mail({ body: " ", messageId: "m-empty" }));
    expect(first.entry).toMatchObject({ outcome: "refused", replied: true });
    await inboundCarrierMail(deps, mail({ body: " ", messageId: "m-empty" }));
    expect(sent).toHaveLength(1);
  });

  it("refuses a mail whose content was not read (over a limit): logged with the limit, answered, nothing changed", async () => {
    const { deps, logged, sent } = setup();
    const refused = mail({ body: null, messageId: "m-big", refusal: "it has more than 100 MIME parts" });
    const result = await inboundCarrierMail(deps, refused);
    expect(result.entry).toMatchObject({
      carrierPrefix: "020",
      outcome: "refused",
      reason: "the e-mail was not read: it has more than 100 MIME parts",
      applied: [],
      replied: true,
    });
    expect(logged).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain(
      "could not be placed: the e-mail was not read: it has more than 100 MIME parts",
    );
    expect(await deps.routeMaps.get(AWB)).toBeNull();
  });

  it("keeps its order for an unread mail: an unknown sender is only logged, failing verdicts get no reply", async () => {
    const { deps, logged, sent } = setup();
    const refusal = "a header line is longer than 8 KB";
    const unknown = await inboundCarrierMail(
      deps,
      mail({ sender: "x@elsewhere.example", refusal, body: null }),
    );
    expect(unknown.entry).toMatchObject({ outcome: "unknown-sender", carrierPrefix: null, replied: false });
    const spoofed = await inboundCarrierMail(
      deps,
      mail({ messageId: "m-2", refusal, body: null, verdicts: { ...PASS, spf: "FAIL" } }),
    );
    expect(spoofed.entry).toMatchObject({ outcome: "refused", reason: "SPF verdict FAIL", replied: false });
    expect(logged).toHaveLength(2);
    expect(sent).toEqual([]);
  });

  it("answers a message for another carrier's AWB (nothing stored)", async () => {
    const { deps, sent } = setup();
    const result = await inboundCarrierMail(deps, mail({ body: FWB.replace(/020-/g, "057-") }));
    expect(result.entry.outcome).toBe("refused");
    expect(result.entry.reason).toContain("may only report its own AWBs");
    expect(sent).toHaveLength(1);
  });
});
