/**
 * The raw messages kept for support and the snapshot's provenance, against DynamoDB Local: a body
 * comes back byte for byte, one item per receipt with its 30-day TTL, a Cargo-IMP status message's
 * item stays under one write unit, an expired one is not answered; a snapshot keeps the message that
 * made its change.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RawMessageStore } from "../../../functions/core/ports/raw-messages.ts";
import type { RouteMapRepository } from "../../../functions/core/ports/route-maps.ts";
import type { ingestCarrierMessage as Ingest } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { scaled } from "../../support/time.ts";
import { type LocalTables, startLocalTables } from "../subscriptions/dynamo-local.ts";

let local: LocalTables;
let store: RawMessageStore;
let routeMaps: RouteMapRepository;
let ingest: typeof Ingest;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  store = (await import("../../../functions/adapters/raw-message-store.ts")).dynamoRawMessageStore();
  routeMaps = (
    await import("../../../functions/adapters/route-map-repository.ts")
  ).dynamoRouteMapRepository();
  ingest = (await import("../../../functions/core/use-cases/ingest-carrier-message.ts")).ingestCarrierMessage;
}, scaled(60_000));

afterAll(async () => {
  await local?.stop();
});

const BODY =
  "\u0001QU FRAFMLH\r\n.FRAXTLH 141203\r\n\u0002FSU/15\r\n020-12345675FRAJFK/T10K250.0\r\nDEP/LH400/14MAR/FRAJFK/T10K250.0/A1341  \r\n\u0003";

describe("the raw-message store", () => {
  it("keeps a body byte for byte under its receipt, 30 days, in less than a kilobyte", async () => {
    const receivedAt = new Date().toISOString();
    const message = {
      carrierPrefix: "020",
      receiptId: "20260314T120301Z-3f9a1c2b7e",
      channel: "api" as const,
      receivedAt,
      contentType: "text/plain",
      body: BODY,
    };
    await store.put(message);
    await store.put(message); // a retried request: the same item
    expect(await store.get("020", message.receiptId)).toEqual(message);
    expect(await store.get("057", message.receiptId)).toBeNull();

    const item = (
      await local.doc.send(
        new GetCommand({
          TableName: local.tables.DELIVERIES_TABLE,
          Key: { pk: `RAWMSG#020#${message.receiptId}`, sk: "RAW" },
          ReturnConsumedCapacity: "TOTAL",
        }),
      )
    ).Item;
    expect(item?.expiresAt).toBe(Math.floor(Date.parse(receivedAt) / 1000) + 30 * 24 * 3600);
    expect(JSON.stringify(item).length).toBeLessThan(1024);
  });

  it("answers nothing for a message past its 30 days that the TTL has not deleted yet", async () => {
    const receivedAt = new Date(Date.now() - 31 * 24 * 3600_000).toISOString();
    await store.put({
      carrierPrefix: "020",
      receiptId: "20260101T000000Z-0000000000",
      channel: "onerecord",
      receivedAt,
      contentType: "application/ld+json",
      body: "{}",
      fetchedFrom: "https://1r.carrier.example/logistics-events/1",
    });
    expect(await store.get("020", "20260101T000000Z-0000000000")).toBeNull();
  });
});

describe("a snapshot", () => {
  it("keeps the message that made its change", async () => {
    const now = new Date().toISOString();
    const day = new Date(Date.now() - 3600_000);
    const ddmmm = `${String(day.getUTCDate()).padStart(2, "0")}${["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"][day.getUTCMonth()]}`;
    await ingest(
      { routeMaps, carriers: { get: async () => null }, backoff: async () => undefined, rawMessages: store },
      {
        carrierPrefix: "020",
        contentType: "text/plain",
        body: `FSU/15\n020-88888881FRAJFK/T10K250.0\nRCS/${ddmmm}0900/FRA/T10\n`,
        now,
        channel: "email",
      },
    );
    const [snapshot] = await routeMaps.snapshots({ prefix: "020", serial: "88888881" }, now);
    expect(snapshot?.provenance).toMatchObject({ c: "e", m: expect.stringMatching(/^FSU\//) });
    const page = await routeMaps.snapshotPage({ prefix: "020", serial: "88888881" }, now, {
      page: 1,
      pageSize: 10,
    });
    expect(page.items[0]?.provenance).toEqual(snapshot?.provenance);
    expect(await store.get("020", snapshot?.provenance?.r ?? "")).toMatchObject({ channel: "email" });
  });
});
