/**
 * Provenance: every actual knows where it came from (channel, message, receipt, carrier, whether its
 * time was given), the history shows it for each snapshot and status message, and the raw message of
 * each receipt that changed something is kept once for support (GET .../messages/{id}).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RawMessageNotFoundError } from "../../../functions/core/errors.ts";
import {
  receiptOf,
  receiptTime,
  renderProvenance,
  storedProvenance,
} from "../../../functions/core/route-map/provenance.ts";
import type { RouteMapHistory } from "../../../functions/core/route-map/spec-types.ts";
import { getCarrierMessage } from "../../../functions/core/use-cases/get-carrier-message.ts";
import { getRouteMapHistory } from "../../../functions/core/use-cases/get-route-map-history.ts";
import { inboundCarrierMail } from "../../../functions/core/use-cases/inbound-carrier-mail.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { receiveOneRecordNotification } from "../../../functions/core/use-cases/receive-onerecord-notification.ts";
import { at, status } from "../route-map/fixtures.ts";
import { AWB, BKD_TWO_LEGS, carrier020, FWB, fsu, harness, OWNER, T0 } from "./support.ts";

const later = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

async function history(h: ReturnType<typeof harness>, now = later(60)): Promise<RouteMapHistory> {
  const page = await getRouteMapHistory(h, { awb: AWB, reader: OWNER, now, page: 1, pageSize: 100 });
  return JSON.parse(page.json) as RouteMapHistory;
}

describe("provenance of a posted message", () => {
  it("is stored with each status, kept with the raw body once per request, and shown in the history", async () => {
    const h = harness();
    await h.imp(`${BKD_TWO_LEGS}${FWB}`, T0);
    const dep = fsu("DEP/LH9350/14MAR/HAJFRA/T10K250.0/A0610");
    const foh = fsu("FOH/14MAR0500/HAJ/T10K250.0/ACME");
    await h.imp(`${dep}${foh}`, later(1));

    const receipt = receiptOf("api", "020", later(1), `${dep}${foh}`);
    // "FSU/13" where the parser names the message, else its format and code ("FSU/DEP").
    const fsuMessage = expect.stringMatching(/^FSU\/(13|DEP|FOH)$/);
    const state = (await h.routeMaps.get(AWB))?.state;
    expect(state?.statuses.map((s) => s.p)).toEqual([{ c: "a", m: fsuMessage, r: receipt.id }]);
    expect(state?.otherStatuses?.map((s) => s.p)).toEqual([{ c: "a", m: fsuMessage, r: receipt.id }]);
    expect(receiptTime(receipt.id)).toBe(later(1).replace(".000Z", "Z"));

    // Two requests changed something: two raw bodies, each kept once although each held two messages.
    expect(h.rawMessages.puts).toBe(2);
    expect(await getCarrierMessage(h, { carrierPrefix: "020", receiptId: receipt.id })).toEqual({
      carrierPrefix: "020",
      receiptId: receipt.id,
      channel: "api",
      receivedAt: later(1),
      contentType: "text/plain",
      body: `${dep}${foh}`,
    });

    const read = await history(h);
    const [depSnapshot, fwbSnapshot, bookingSnapshot] = read.Snapshots;
    expect(depSnapshot?.Provenance).toEqual({
      Channel: "Api",
      Message: fsuMessage,
      MessageId: null,
      Carrier: "020",
      ReceivedAt: { Utc: "2026-03-13T10:01:00Z", Local: "2026-03-13T11:01:00" },
      TimeGiven: true,
      StatusRequestReply: false,
      ReceiptId: receipt.id,
      SkippedLines: [],
    });
    expect(fwbSnapshot?.Provenance).toMatchObject({
      Message: expect.stringMatching(/^FWB/),
      TimeGiven: false,
    });
    expect(bookingSnapshot?.Provenance).toMatchObject({
      Message: expect.stringMatching(/^FSU\//),
      TimeGiven: null,
    });
    expect(read.StatusMessages[0]?.Provenance).toMatchObject({ Channel: "Api", ReceiptId: receipt.id });
  });

  it("keeps nothing for a body that changes nothing, and the first receipt's provenance for a repeat", async () => {
    const h = harness();
    const dep = fsu("DEP/LH9350/14MAR/HAJFRA/T10K250.0/A0610");
    await h.imp(dep, T0);
    await ingestCarrierMessage(h, {
      carrierPrefix: "020",
      contentType: "text/plain",
      body: dep,
      now: later(5),
      channel: "email",
    });
    expect(h.rawMessages.puts).toBe(1);
    expect((await h.routeMaps.get(AWB))?.state.statuses[0]?.p?.c).toBe("a");
  });

  it("answers 404 for a receipt not kept (another carrier's, or none)", async () => {
    const h = harness();
    await h.imp(fsu("RCS/14MAR0500/HAJ/T10"), T0);
    const [id] = [...h.rawMessages.messages.values()].map((m) => m.receiptId);
    await expect(getCarrierMessage(h, { carrierPrefix: "057", receiptId: id ?? "" })).rejects.toThrow(
      RawMessageNotFoundError,
    );
  });

  it("names the message as the parser named it, and an FSA as the answer to a status request", () => {
    const receipt = receiptOf("email", "020", T0, "FSA/14 ...");
    const report = {
      ...status("RCS", "HAJ", at(14, 3, "0500")),
      message: { type: "FSA", version: "14", id: "QD1234/140500" },
    };
    const stored = storedProvenance(report, receipt);
    expect(stored).toEqual({ c: "e", m: "FSA/14", i: "QD1234/140500", r: receipt.id });
    expect(renderProvenance(stored, "020", "HAJ")).toEqual({
      Channel: "Email",
      Message: "FSA/14",
      MessageId: "QD1234/140500",
      Carrier: "020",
      ReceivedAt: { Utc: "2026-03-13T10:00:00Z", Local: "2026-03-13T11:00:00" },
      TimeGiven: true,
      StatusRequestReply: true,
      ReceiptId: receipt.id,
      SkippedLines: [],
    });
  });
});

describe("the channel each entry point passes", () => {
  it("e-mail: the inbound mail's text, received at the mail's receipt", async () => {
    const h = harness();
    h.settings.set("020", {
      airlinePrefix: "020",
      name: "Lufthansa Cargo",
      qualityProgram: true,
      xtd: true,
      updatedAt: T0,
      inboundSenders: ["gateway@lh-cargo.example"],
    });
    const body = fsu("RCS/14MAR0500/HAJ/T10");
    await inboundCarrierMail(
      {
        ...h,
        senders: { carrierOf: async () => "020" },
        inboundLog: {
          record: async () => "recorded" as const,
          list: async () => ({ items: [], next: null }),
        },
        email: { send: async () => ({ kind: "sent" as const, messageId: "r", latencyMs: 1 }) },
        tenants: { getTenant: async () => null },
      },
      {
        messageId: "m-1",
        sender: "gateway@lh-cargo.example",
        subject: "FSU",
        receivedAt: T0,
        body,
        attachments: [],
        verdicts: { spam: "PASS", virus: "PASS", spf: "PASS", dkim: "PASS" },
      },
    );
    const p = (await h.routeMaps.get(AWB))?.state.statuses[0]?.p;
    expect(p).toEqual({
      c: "e",
      m: expect.stringMatching(/^FSU\//),
      r: receiptOf("email", "020", T0, body).id,
    });
    expect([...h.rawMessages.messages.values()][0]).toMatchObject({ channel: "email", body });
  });

  it("ONE Record: each fetched document is a receipt, kept with the IRI it came from", async () => {
    const h = harness();
    carrier020(h);
    const settings = h.settings.get("020");
    const server = "https://1r.carrier.example/";
    if (settings) h.settings.set("020", { ...settings, oneRecord: { serverUrl: server, token: null } });
    const object = `${server}logistics-objects/3c0f6a52-shipment-020-12345675`;
    const event = `${object}/logistics-events/9b1e0c44-dep-lh400`;
    const fixture = (name: string) =>
      readFileSync(new URL(`../../fixtures/onerecord/${name}`, import.meta.url), "utf8");
    const document = fixture("status-update-event-dep.jsonld");
    await receiveOneRecordNotification(
      {
        ...h,
        carrierSettings: h.carriers,
        publisher: { fetch: async () => ({ kind: "ok", body: document }) },
      },
      { carrierPrefix: "020", body: fixture("notification-logistics-event-received.jsonld"), now: T0 },
    );
    const kept = [...h.rawMessages.messages.values()];
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ channel: "onerecord", body: document, fetchedFrom: event });
    expect((await h.routeMaps.get(AWB))?.state.statuses[0]?.p).toMatchObject({
      c: "o",
      r: kept[0]?.receiptId,
    });
  });
});
