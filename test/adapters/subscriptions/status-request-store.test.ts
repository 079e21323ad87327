/**
 * The status-request items of the Deliveries table (functions/adapters/status-request-store.ts) against
 * DynamoDB Local: the collapse window's conditional claim (concurrent claims: one wins), the carrier's
 * pull queue (oldest first, ack removes, another carrier's ack finds nothing) and the usage ledger's
 * atomic counter per forwarder and month.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CarrierRequestInbox,
  StatusRequestWindow,
  UsageLedger,
} from "../../../functions/core/ports/carriers.ts";
import { type StatusRequest, statusRequestId } from "../../../functions/core/status-requests.ts";
import { type LocalTables, startLocalTables } from "./dynamo-local.ts";

let local: LocalTables;
let window: StatusRequestWindow;
let inbox: CarrierRequestInbox;
let usage: UsageLedger;

beforeAll(async () => {
  local = await startLocalTables();
  const store = await import("../../../functions/adapters/status-request-store.ts");
  window = store.dynamoStatusRequestWindow();
  inbox = store.dynamoCarrierRequestInbox();
  usage = store.dynamoUsageLedger();
});

afterAll(async () => {
  await local?.stop();
});

const now = Date.now();
const iso = (offsetSeconds: number) => new Date(now + offsetSeconds * 1000).toISOString();
const AWB = { prefix: "020", serial: "12345675" };

describe("the collapse window", () => {
  it("one of concurrent claims wins; the others name its request; after the window a new claim wins", async () => {
    const claims = await Promise.all(
      [0, 1, 2, 3, 4].map((index) =>
        window.claim({
          carrierPrefix: "020",
          awb: AWB,
          requestId: `SR-${index}`,
          now: iso(0),
          until: iso(900),
        }),
      ),
    );
    const winners = claims.filter((claim) => claim.claimed);
    expect(winners).toHaveLength(1);
    const winnerIndex = claims.findIndex((claim) => claim.claimed);
    for (const claim of claims) if (!claim.claimed) expect(claim.requestId).toBe(`SR-${winnerIndex}`);
    const later = await window.claim({
      carrierPrefix: "020",
      awb: AWB,
      requestId: "SR-late",
      now: iso(900),
      until: iso(1800),
    });
    expect(later).toEqual({ claimed: true });
  });
});

describe("the pull queue", () => {
  const request = (serial: string, offset: number): StatusRequest => {
    const awb = { prefix: "176", serial };
    return {
      requestId: statusRequestId(awb, iso(offset)),
      carrierPrefix: "176",
      awb,
      origin: null,
      destination: null,
      requestedAt: iso(offset),
      forwarderId: "ACMECARGO",
      isXtd: true,
    };
  };

  it("lists oldest first, pages, and the ack removes only the carrier's own request", async () => {
    const newer = request("22222222", 10);
    const older = request("11111111", 0);
    for (const item of [newer, older])
      await inbox.put({
        request: item,
        format: "json",
        contentType: "application/json",
        body: "{}",
        availableAt: iso(20),
      });
    const listed = await inbox.list("176", { page: 1, pageSize: 1 });
    expect(listed.total).toBe(2);
    expect(listed.items.map((item) => item.request.requestId)).toEqual([older.requestId]);
    expect(await inbox.ack("020", older.requestId)).toBe(false);
    expect(await inbox.ack("176", older.requestId)).toBe(true);
    expect(await inbox.ack("176", older.requestId)).toBe(false);
    const rest = await inbox.list("176", { page: 1, pageSize: 10 });
    expect(rest.items.map((item) => item.request.requestId)).toEqual([newer.requestId]);
  });
});

describe("the usage ledger", () => {
  it("counts atomically per forwarder and month (concurrent records all counted)", async () => {
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((index) =>
        usage.record({
          forwarderId: index < 4 ? "ACMECARGO" : "FWD2",
          month: "2026-05",
          at: `2026-05-0${index + 1}T00:00:00.000Z`,
          awb: AWB,
          requestId: `SR-${index}`,
          collapsed: index > 0,
        }),
      ),
    );
    const own = await usage.forForwarder("ACMECARGO", "2026-05", { page: 1, pageSize: 2 });
    expect(own.count).toBe(4);
    expect(own.entries.total).toBe(4);
    expect(own.entries.items.map((entry) => entry.requestId)).toEqual(["SR-0", "SR-1"]);
    expect(await usage.forMonth("2026-05")).toEqual([
      { forwarderId: "ACMECARGO", count: 4 },
      { forwarderId: "FWD2", count: 2 },
    ]);
    expect((await usage.forForwarder("ACMECARGO", "2026-06", { page: 1, pageSize: 10 })).count).toBe(0);
  });
});
