/**
 * Issue 15's write-cost pieces that need no DynamoDB: the capacity metric points, how a reported
 * ConsumedCapacity splits into read and write units, the stored-JSON codec (its dictionary is part of
 * the stored format: a golden value written with it must keep decoding), and the search fields a
 * change says the reader items already hold.
 */
import { describe, expect, it } from "vitest";
import { unitsOf } from "../../../functions/adapters/consumed-capacity.ts";
import { capacityPoints } from "../../../functions/adapters/metrics.ts";
import { packJson, ROUTE_MAP_CODEC, unpackJson } from "../../../functions/adapters/route-map-codec.ts";
import { METRIC_NAMES } from "../../../functions/contracts/metrics.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { routeMapChange, searchFieldsOf } from "../../../functions/core/use-cases/shared/route-map-writes.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";

describe("consumed-capacity metrics", () => {
  it("emits read and write units by Operation, leaving out zero units", () => {
    expect(
      capacityPoints({ operation: "RouteMaps.TransactWriteItems", readUnits: 0, writeUnits: 8 }),
    ).toEqual([
      {
        name: METRIC_NAMES.writeCapacityUnits,
        value: 8,
        dimensions: { Operation: "RouteMaps.TransactWriteItems" },
      },
    ]);
    expect(capacityPoints({ operation: "RouteMaps.Query", readUnits: 1.5, writeUnits: 0 })).toEqual([
      { name: "ReadCapacityUnits", value: 1.5, dimensions: { Operation: "RouteMaps.Query" } },
    ]);
    expect(capacityPoints({ operation: "RouteMaps.GetItem", readUnits: 0, writeUnits: 0 })).toEqual([]);
  });

  it("splits a TOTAL report by the kind of command, and prefers the split DynamoDB gives", () => {
    expect(unitsOf("GetItem", { TableName: "t", CapacityUnits: 0.5 })).toEqual({
      readUnits: 0.5,
      writeUnits: 0,
    });
    expect(unitsOf("TransactWriteItems", { TableName: "t", CapacityUnits: 8 })).toEqual({
      readUnits: 0,
      writeUnits: 8,
    });
    expect(
      unitsOf("UpdateItem", {
        TableName: "t",
        CapacityUnits: 3,
        ReadCapacityUnits: 1,
        WriteCapacityUnits: 2,
      }),
    ).toEqual({ readUnits: 1, writeUnits: 2 });
  });
});

describe("route-map codec", () => {
  const golden =
    '{"Status":"OnAir","MilestonePlan":{"OriginCycle":{"Milestone":[{"Code":"RCS","Status":"Ok","PlannedDateTime":{"Utc":"2026-03-14T02:00:00Z","Local":"2026-03-14T03:00:00"}}]}}}';

  it("decodes what codec 1 stored when it was introduced (the dictionary never changes)", () => {
    const stored = Buffer.from(
      "q8b0MmlD8tAYRIy/IloKODOQkYGRma6Bsa6hCWj01cDAysAA2aXI0sYQaaXa2tja2loA",
      "base64",
    );
    expect(unpackJson(stored, ROUTE_MAP_CODEC)).toBe(golden);
  });

  it("round-trips JSON, smaller than the text, and refuses a codec it does not know", () => {
    const text = JSON.stringify({ ...JSON.parse(golden), Note: "é ✈ 中" });
    const packed = packJson(text);
    expect(unpackJson(packed, ROUTE_MAP_CODEC)).toBe(text);
    expect(packed.byteLength).toBeLessThan(Buffer.byteLength(text) / 2);
    expect(() => unpackJson(packed, 2)).toThrow(/unknown codec 2/);
  });
});

describe("routeMapChange", () => {
  it("names the search fields the reader items hold already: the previous rendering's", async () => {
    const routeMaps = memoryRouteMapRepository();
    const deps = { routeMaps, carriers: { get: async () => null }, backoff: async () => undefined };
    const post = (body: string, now: string) =>
      ingestCarrierMessage(deps, { carrierPrefix: "020", contentType: "text/plain", body, now });
    await post(
      "FSU/13\n020-12345675HAJJFK/T10K250.0\nBKD/LH9350/14MAR/HAJFRA/T10/S0600/S0930\nBKD/LH400/14MAR/FRAJFK/T10/S1325/S1555\n",
      "2026-03-13T10:00:00.000Z",
    );
    const previous = await routeMaps.get({ prefix: "020", serial: "12345675" });
    if (!previous) throw new Error("no record");
    const creation = routeMapChange(null, previous.state, [], "2026-03-13T10:00:00.000Z", []);
    expect(creation).not.toHaveProperty("previousSearchFields");

    const change = routeMapChange(previous, previous.state, [], "2026-03-13T11:00:00.000Z", []);
    expect(change.previousSearchFields).toEqual(searchFieldsOf(JSON.parse(previous.routeMapJson)));
    expect(change.previousSearchFields).toMatchObject({
      Status: "Booked",
      Origin: "HAJ",
      AwbNumber: "12345675",
    });
    // Nothing a reader searches on moved: the store may leave the reader items alone.
    expect(change.searchFields).toEqual(change.previousSearchFields);
  });
});
