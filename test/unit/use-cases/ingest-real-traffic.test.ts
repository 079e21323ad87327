/**
 * The ingest use case with real traffic's messages: a flight manifest lists other airlines' AWBs too
 * (their lines are skipped, the carrier's own applied), a manifest keeps MAN in each AWB's history,
 * and a body the API refuses is recorded in the carrier's inbound log for support, with its reason
 * and line, nothing else stored.
 */
import { describe, expect, it } from "vitest";
import { ForeignAwbError, MessageParseError } from "../../../functions/core/errors.ts";
import type { InboundMailEntry, InboundMailLog } from "../../../functions/core/ports/inbound-mail.ts";
import {
  API_SENDER,
  ingestCarrierMessage,
  ingestPostedCarrierMessage,
} from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";

const NOW = "2026-04-09T12:00:00Z";
const deps = () => ({
  routeMaps: memoryRouteMapRepository(),
  carriers: { get: async () => null },
  backoff: async () => undefined,
});

/** An FFM of KZ7134 from NRT listing a KZ (933) AWB and an ANA (205) AWB. */
const INTERLINE_FFM = [
  "FFM/8",
  "5/KZ7134/09APR2215/NRT/N407KZ",
  "ORD//09APR2240",
  "933-34359706HKGORD/T15K4396MC15/CNSL DSV BUC 71",
  "205-33450222PEKORD/T145K2280MC12.31/CONSOLIDATION",
  "LAST",
].join("\n");

function recordingLog(): InboundMailLog & { entries: InboundMailEntry[] } {
  const entries: InboundMailEntry[] = [];
  return {
    entries,
    async record(entry) {
      entries.push(entry);
      return "recorded";
    },
    async list() {
      return { items: entries, next: null };
    },
  };
}

describe("a flight manifest's lines of other airlines", () => {
  it("are skipped: the carrier's own AWBs are booked on the leg and keep MAN in their history", async () => {
    const d = deps();
    const applied = await ingestCarrierMessage(d, {
      carrierPrefix: "933",
      contentType: "text/plain",
      body: INTERLINE_FFM,
      now: NOW,
    });
    expect(applied.map((a) => `${a.awb.prefix}-${a.awb.serial}`)).toEqual(["933-34359706", "933-34359706"]);
    const stored = await d.routeMaps.getForChange({ prefix: "933", serial: "34359706" });
    expect(stored.record?.state.otherStatuses).toMatchObject([{ code: "MAN", station: "NRT" }]);
    expect((await d.routeMaps.getForChange({ prefix: "205", serial: "33450222" })).record).toBeNull();
  });

  it("a status message of another carrier's AWB is still refused, nothing stored", async () => {
    const d = deps();
    await expect(
      ingestCarrierMessage(d, {
        carrierPrefix: "933",
        contentType: "text/plain",
        body: "FSU/15\n205-33450222PEKORD/T145\nRCS/08APR1200/PEK/T145\n",
        now: NOW,
      }),
    ).rejects.toBeInstanceOf(ForeignAwbError);
  });
});

describe("a body the API refuses is recorded for support", () => {
  it("with its reason, line, content type and request id; the refusal is still the answer", async () => {
    const refusals = recordingLog();
    const refused = ingestPostedCarrierMessage(
      { ...deps(), refusals },
      {
        requestId: "req-1",
        carrierPrefix: "020",
        contentType: "text/plain",
        body: "FSU/15\n020-12345675FRAJFK/T10\nRCS/14MAR2500/FRA/T10\n",
        now: NOW,
      },
    );
    await expect(refused).rejects.toBeInstanceOf(MessageParseError);
    expect(refusals.entries).toEqual([
      {
        carrierPrefix: "020",
        messageId: "req-1",
        sender: API_SENDER,
        subject: "text/plain",
        receivedAt: NOW,
        outcome: "refused",
        reason: 'line 3: expected an hour 00-23, found "14MAR2500"',
        line: 3,
        applied: [],
        replied: false,
      },
    ]);
  });

  it("another carrier's AWB too (no line); an accepted body records nothing; a failing log changes no answer", async () => {
    const refusals = recordingLog();
    const input = { requestId: "req-2", carrierPrefix: "933", contentType: "text/plain", now: NOW };
    await expect(
      ingestPostedCarrierMessage(
        { ...deps(), refusals },
        { ...input, body: "FSU/15\n020-12345675FRAJFK/T10\nRCS/14MAR0910/FRA/T10\n" },
      ),
    ).rejects.toBeInstanceOf(ForeignAwbError);
    expect(refusals.entries).toMatchObject([
      { outcome: "refused", line: null, reason: expect.stringContaining("933") },
    ]);

    await ingestPostedCarrierMessage({ ...deps(), refusals }, { ...input, body: INTERLINE_FFM });
    expect(refusals.entries).toHaveLength(1);

    const failing: InboundMailLog = {
      record: async () => {
        throw new Error("table unavailable");
      },
      list: async () => ({ items: [], next: null }),
    };
    await expect(
      ingestPostedCarrierMessage({ ...deps(), refusals: failing }, { ...input, body: "FFM/8\n" }),
    ).rejects.toBeInstanceOf(MessageParseError);
  });
});
