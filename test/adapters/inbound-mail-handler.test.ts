/**
 * The inbound-carrier-mail function as SES invokes it in AWS: SES has accepted and stored the mail
 * (it refuses no structure), the function reads it back. A mail over the limits, or one the parser
 * cannot read, never throws (Lambda would retry it twice and then lose it): it ends in the carrier's
 * inbound log as refused, naming the limit, and its sender gets the reply; a mail too large to fetch is
 * named by SES's own parse of its headers.
 */
import type { Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { sesEventOf } from "../../bin/local/inbound-mail.ts";
import { parseReceivedMail } from "../../functions/adapters/received-mail-store.ts";
import type { CarrierSettings } from "../../functions/core/carriers.ts";
import type { InboundMailEntry, ReceivedMailContent } from "../../functions/core/ports/inbound-mail.ts";
import type { EmailMessage } from "../../functions/core/ports/notifications.ts";
import type { Tenant } from "../../functions/core/tenants/tenants.ts";
import { make } from "../../functions/handlers/mail/inbound-carrier-mail.ts";
import { HOSTILE_MAILS } from "../support/hostile-mail.ts";
import { memoryRouteMapRepository } from "../support/memory/route-map-repository.ts";

const T0 = "2026-03-13T10:00:00.000Z";
const GATEWAY = "gateway@lh-cargo.example";
const FSU = "FSU/13\r\n020-12345675FRAJFK/T10K250.0\r\nDEP/LH400/13MAR/FRAJFK/T10K250.0/A0941\r\n";
const context = { getRemainingTimeInMillis: () => 60_000 } as Context;

function setup(stored: (messageId: string) => Promise<ReceivedMailContent>) {
  const settings: CarrierSettings = {
    airlinePrefix: "020",
    name: "Lufthansa Cargo",
    qualityProgram: true,
    xtd: true,
    updatedAt: T0,
    inboundSenders: [GATEWAY],
  };
  const logged: InboundMailEntry[] = [];
  const sent: EmailMessage[] = [];
  const routeMaps = memoryRouteMapRepository();
  const handler = make(() => ({
    mails: { read: stored },
    routeMaps,
    carriers: { get: async (prefix: string) => (prefix === "020" ? settings : null) },
    backoff: async () => undefined,
    tenants: {
      getTenant: async () =>
        ({ kind: "carrier", carrierPrefix: "020", enabled: true, createdAt: T0, updatedAt: T0 }) as Tenant,
    },
    senders: { carrierOf: async (address: string) => (address === GATEWAY ? "020" : null) },
    inboundLog: {
      record: async (entry: InboundMailEntry) => {
        logged.push(entry);
        return "recorded" as const;
      },
      list: async () => ({ items: [...logged], next: null }),
    },
    email: {
      send: async (message: EmailMessage) => {
        sent.push(message);
        return { kind: "sent" as const, messageId: `r-${sent.length}`, latencyMs: 1 };
      },
    },
  }));
  return { handler, logged, sent, routeMaps };
}

const envelope = { mailFrom: "bounce@lh-cargo.example", recipients: ["carriers@routemap.local"] };

describe("a mail SES stored that is over the limits", () => {
  it.each(Object.entries(HOSTILE_MAILS))(
    "with %s ends refused in the carrier's log and is answered",
    async (name, build) => {
      const raw = Buffer.from(build(`"LH Cargo" <${GATEWAY}>`, `hostile ${name}`, FSU));
      const { handler, logged, sent, routeMaps } = setup(async () => parseReceivedMail(raw));
      await handler(await sesEventOf(raw, "m-1", envelope, new Date(T0)), context);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        carrierPrefix: "020",
        sender: GATEWAY,
        subject: `hostile ${name}`,
        outcome: "refused",
        applied: [],
        replied: true,
      });
      expect(logged[0]?.reason).toMatch(/^the e-mail was not read: /);
      expect(sent.map((message) => message.to)).toEqual([GATEWAY]);
      expect(await routeMaps.get({ prefix: "020", serial: "12345675" })).toBeNull();
    },
  );

  it("too large to fetch: named by SES's parse of its headers, refused and answered", async () => {
    const raw = Buffer.from(`From: "LH Cargo" <Gateway@LH-Cargo.example>\r\nSubject: huge\r\n\r\n${FSU}`);
    const { handler, logged, sent } = setup(async () => ({
      sender: "",
      subject: "",
      body: null,
      attachments: [],
      refusal: "the e-mail is larger than 10240 KB",
    }));
    await handler(await sesEventOf(raw, "m-2", envelope, new Date(T0)), context);
    expect(logged[0]).toMatchObject({ sender: GATEWAY, subject: "huge", outcome: "refused", replied: true });
    expect(sent).toHaveLength(1);
  });
});
