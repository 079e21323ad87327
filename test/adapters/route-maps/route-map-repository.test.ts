/**
 * The DynamoDB route-map repository against DynamoDB Local: the transaction layout, optimistic
 * concurrency under real contention, early XTD grants, reader items, TTL filtering and the index query.
 * DynamoDB calls are counted by a middleware on the adapter's own document client.
 */
import { randomBytes } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTables,
  type DynamoDbLocal,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../../../bin/local/emulators.ts";
import { WriteTooLargeError } from "../../../functions/core/errors.ts";
import type { RouteMapRepository, TriggerRecord } from "../../../functions/core/ports/route-maps.ts";
import type { ingestCarrierMessage as Ingest } from "../../../functions/core/use-cases/ingest-carrier-message.ts";

let emulator: DynamoDbLocal;
let repo: RouteMapRepository;
let ingest: typeof Ingest;
let doc: DynamoDBDocumentClient;
/** Commands the adapter sent, in order (cleared by the tests that count them). */
const calls: string[] = [];
const carriers = { get: async () => null };
const backoff = (attempt: number) =>
  new Promise<void>((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** attempt)));

beforeAll(async () => {
  emulator = await startDynamoDbLocal(await freePort());
  const tableEnv = await createTables(emulator.endpoint, { expireItems: false });
  Object.assign(process.env, tableEnv, {
    AWS_ENDPOINT_URL_DYNAMODB: emulator.endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoRouteMapRepository } = await import("../../../functions/adapters/route-map-repository.ts");
  ingest = (await import("../../../functions/core/use-cases/ingest-carrier-message.ts")).ingestCarrierMessage;
  repo = dynamoRouteMapRepository();
  const { dynamo } = await import("../../../functions/adapters/aws-clients.ts");
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(context.commandName ?? "unknown");
      return next(args);
    },
    { step: "initialize", name: "countRouteMapCalls" },
  );
  doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: emulator.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  );
});

afterAll(async () => {
  doc?.destroy();
  await emulator?.stop();
});

const T0 = "2026-03-13T10:00:00.000Z";
const later = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const awbOf = (serial: string) => ({ prefix: "020", serial });
const post = (body: string, now: string, routeMaps: RouteMapRepository = repo, conflictBackoff = backoff) =>
  ingest(
    { routeMaps, carriers, backoff: conflictBackoff },
    { carrierPrefix: "020", contentType: "text/plain", body, now },
  );
const xtdTrigger = (serial: string, forwarderId: string): TriggerRecord => ({
  awb: awbOf(serial),
  program: "XTD",
  forwarderId,
  agent: { code: "1111111", cass: "0001" },
  requestedAt: T0,
});
const bkd = (serial: string) =>
  `FSU/13\n020-${serial}HAJJFK/T10K250.0\nBKD/LH9350/14MAR/HAJFRA/T10/S0600/S0930\nBKD/LH400/14MAR/FRAJFK/T10/S1325/S1555\n`;
const fwb = (serial: string, agent = "1234567/0001") =>
  `FWB/16\n020-${serial}HAJJFK/T10K250.0\nAGT//${agent}\n`;

async function itemsOf(serial: string, prefix: string) {
  const result = await doc.send(
    new QueryCommand({
      TableName: "RouteMaps",
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
      ExpressionAttributeValues: { ":pk": `AWB#020${serial}`, ":p": prefix },
    }),
  );
  return result.Items ?? [];
}

describe("dynamoRouteMapRepository", () => {
  it("writes current, snapshot, outbox events and reader items in one change", async () => {
    const serial = "12345675";
    await post(bkd(serial), T0);
    await post(fwb(serial), later(1));
    const record = await repo.get(awbOf(serial));
    expect(record).toMatchObject({
      version: 2,
      ownerAgent: { code: "1234567", cass: "0001" },
      origin: "HAJ",
    });
    const view = await repo.getView(awbOf(serial));
    expect(view).not.toHaveProperty("state");
    expect(view?.routeMapJson).toBe(record?.routeMapJson);

    const events = await itemsOf(serial, "EVT#");
    expect(events.map((e) => [e.kind, e.event.name, e.event.eventId])).toEqual([
      ["event", "RMP", "02012345675-1-0"],
      ["event", "FWB", "02012345675-2-0"],
      // The owner the FWB names gets its own RMP Creation (owners learn late).
      ["event", "RMP", "02012345675-2-1"],
    ]);
    expect(events[0]?.expiresAt).toBe(Math.floor(Date.parse(T0) / 1000) + 7 * 86_400);
    const snapshots = await itemsOf(serial, "SNAP#");
    expect(snapshots.map((s) => s.sk)).toEqual([
      "SNAP#2026-03-13T10:00:00.000Z#00000001",
      "SNAP#2026-03-13T10:01:00.000Z#00000002",
    ]);
    expect(snapshots[0]?.expiresAt).toBe(Math.floor(Date.parse(T0) / 1000) + 30 * 86_400);
    const readers = await itemsOf(serial, "READER#");
    expect(readers).toHaveLength(1);
    expect(readers[0]).toMatchObject({
      readerKey: "AGT#1234567#0001",
      readerSort: "2026-03-13T10:00:00Z#02012345675",
      Status: "Booked",
      Origin: "HAJ",
    });
  });

  it("changes nothing for a duplicate and refuses a stale write", async () => {
    const serial = "12345686";
    await post(bkd(serial), T0);
    const again = await post(bkd(serial), later(5));
    expect(again[0]?.changed).toBe(false);
    expect(await itemsOf(serial, "SNAP#")).toHaveLength(1);

    const current = await repo.get(awbOf(serial));
    if (!current) throw new Error("no record");
    const stale = { ...current, version: current.version - 1 };
    const outcome = await repo.write({
      previous: stale,
      next: { ...current, version: current.version },
      snapshot: null,
      events: [],
      searchFields: {
        AirlinePrefix: "020",
        AwbNumber: serial,
        Origin: "HAJ",
        Destination: "JFK",
        Status: "Booked",
        CreationDate: "2026-03-13T10:00:00Z",
        DeliveryDate: null,
        ReceiptDate: null,
      },
    });
    expect(outcome).toBe("conflict");
    const created = await repo.write({
      previous: null,
      next: current,
      snapshot: null,
      events: [],
      searchFields: {
        AirlinePrefix: "020",
        AwbNumber: serial,
        Origin: "HAJ",
        Destination: "JFK",
        Status: "Booked",
        CreationDate: "2026-03-13T10:00:00Z",
        DeliveryDate: null,
        ReceiptDate: null,
      },
    });
    expect(created).toBe("conflict");
  });

  it("never loses an update when 20 messages for one AWB arrive at once", async () => {
    const serial = "12345690";
    await post(bkd(serial), T0);
    const messages = Array.from({ length: 20 }, (_, i) => {
      const minute = String(i).padStart(2, "0");
      return `FSU/13\n020-${serial}HAJJFK/T10\nRCS/14MAR04${minute}/HAJ/T${i + 1}\n`;
    });
    const results = await Promise.all(messages.map((m, i) => post(m, later(10 + i))));
    expect(results.every((r) => r[0]?.changed)).toBe(true);
    const record = await repo.get(awbOf(serial));
    expect(record?.version).toBe(21);
    expect(record?.state.statuses.filter((s) => s.status === "RCS")).toHaveLength(20);
    expect(await itemsOf(serial, "SNAP#")).toHaveLength(21);
    // Every change got its own events: one RCS per message (LAT only with the first RCS applied).
    const events = await itemsOf(serial, "EVT#");
    expect(events.filter((e) => e.event.name === "RCS")).toHaveLength(20);
    expect(new Set(events.map((e) => e.event.eventId)).size).toBe(events.length);
  });

  it("never loses an update when the first messages for a NEW AWB arrive at once", async () => {
    const serial = "12345734";
    const status = (line: string) => `FSU/13\n020-${serial}HAJJFK/T10\n${line}\n`;
    const messages = [
      bkd(serial),
      fwb(serial),
      status("RCS/14MAR0310/HAJ/T10"),
      status("DEP/LH9350/14MAR/HAJFRA/T10/A0605"),
      status("ARR/LH9350/14MAR0925/FRA/T10"),
      status("DEP/LH400/14MAR/FRAJFK/T10/A1330"),
    ];
    // Every one of them takes the create path (attribute_not_exists) first; all but one lose that race.
    const results = await Promise.all(messages.map((m, i) => post(m, later(30 + i))));
    expect(results.map((r) => r[0]?.changed)).toEqual(messages.map(() => true));

    const record = await repo.get(awbOf(serial));
    expect(record?.version).toBe(messages.length);
    expect(record?.state.legs.map((l) => l.flightNumber)).toEqual(["9350", "400"]);
    expect(record?.state.statuses.map((s) => s.status).sort()).toEqual(["ARR", "DEP", "DEP", "RCS"]);
    expect(record?.ownerAgent).toEqual({ code: "1234567", cass: "0001" });
    expect(record?.state.fwbReceivedAt).not.toBeNull();
    expect(await itemsOf(serial, "SNAP#")).toHaveLength(messages.length);
    const events = await itemsOf(serial, "EVT#");
    const count = (name: string) => events.filter((e) => e.event.name === name).length;
    // The owner hears exactly one RMP Creation whichever landed first: the booking's own when the FWB
    // came before it, else its late one (the booking's then had no reader).
    const ownerHears = (e: (typeof events)[number]) => e.event.audience.ownerAgent !== null;
    const rmps = events.filter((e) => e.event.name === "RMP");
    expect(rmps.filter(ownerHears)).toHaveLength(1);
    expect(rmps.filter((e) => !ownerHears(e)).length).toBeLessThanOrEqual(1);
    expect([count("FWB"), count("RCS"), count("LAT"), count("DEP"), count("ARR")]).toEqual([1, 1, 1, 2, 1]);
    expect(rmps.every((e) => e.event.eventStatus === "Creation")).toBe(true);
    // One version per write: event ids never collide.
    expect(new Set(events.map((e) => e.event.eventId)).size).toBe(events.length);
    expect(new Set(events.map((e) => e.event.version)).size).toBe(messages.length);
    expect((await itemsOf(serial, "READER#")).map((r) => r.readerKey)).toEqual(["AGT#1234567#0001"]);
  });

  it("refuses a change too large to store with WriteTooLargeError, storing nothing", async () => {
    const serial = "12345745";
    await post(bkd(serial), T0);
    const current = await repo.get(awbOf(serial));
    if (!current) throw new Error("no record");
    const change = {
      previous: current,
      next: { ...current, version: current.version + 1 },
      snapshot: null,
      events: [],
      searchFields: {
        AirlinePrefix: "020",
        AwbNumber: serial,
        Origin: "HAJ",
        Destination: "JFK",
        Status: "Booked" as const,
        CreationDate: "2026-03-13T10:00:00Z",
        DeliveryDate: null,
        ReceiptDate: null,
      },
    };
    const event = (await itemsOf(serial, "EVT#"))[0]?.event;
    const manyEvents = Array.from({ length: 100 }, (_, i) => ({ ...event, eventId: `${serial}-x-${i}` }));
    await expect(repo.write({ ...change, events: manyEvents })).rejects.toBeInstanceOf(WriteTooLargeError);
    // Over DynamoDB's 400 KB item limit even compressed (random text: the stored JSON is deflated).
    const huge = { ...change.next, routeMapJson: randomBytes(600_000).toString("base64") };
    await expect(repo.write({ ...change, next: huge })).rejects.toBeInstanceOf(WriteTooLargeError);
    expect((await repo.get(awbOf(serial)))?.version).toBe(current.version);
  });

  it("moves the reader item when a new FWB names another owner", async () => {
    const serial = "12345701";
    await post(bkd(serial), T0);
    await post(fwb(serial), later(1));
    await post(fwb(serial, "7654321/0042"), later(2));
    const readers = await itemsOf(serial, "READER#");
    expect(readers.map((r) => r.readerKey)).toEqual(["AGT#7654321#0042"]);
  });

  it("filters expired snapshots even before TTL deletes them", async () => {
    const serial = "12345712";
    await post(bkd(serial), T0);
    expect(await repo.snapshots(awbOf(serial), T0)).toHaveLength(1);
    expect(await repo.snapshots(awbOf(serial), later(30 * 24 * 60))).toEqual([]);
    expect(await repo.snapshotPage(awbOf(serial), later(30 * 24 * 60), { page: 1, pageSize: 10 })).toEqual({
      total: 0,
      items: [],
    });
  });

  it("reads one page of the history, newest first, with the total", async () => {
    const serial = "12345804";
    await post(bkd(serial), T0);
    for (let i = 0; i < 5; i++)
      await post(`FSU/13\n020-${serial}HAJJFK/T10\nRCS/14MAR030${i}/HAJ/T10\n`, later(2 + i));
    const all = await repo.snapshots(awbOf(serial), T0);
    expect(all).toHaveLength(6);
    const first = await repo.snapshotPage(awbOf(serial), T0, { page: 1, pageSize: 3 });
    const second = await repo.snapshotPage(awbOf(serial), T0, { page: 2, pageSize: 4 });
    expect(first).toEqual({ total: 6, items: all.slice(0, 3) });
    expect(second).toEqual({ total: 6, items: all.slice(4) });
    expect((await repo.snapshotPage(awbOf(serial), T0, { page: 3, pageSize: 3 })).items).toEqual([]);
  });

  it("stores a trigger only while no route map exists when asked to", async () => {
    const trigger = xtdTrigger("12345723", "FWD9");
    expect(await repo.putTrigger(trigger, { onlyWithoutRouteMap: true })).toBe("written");
    expect(await repo.getForChange(trigger.awb)).toEqual({
      record: null,
      earlyXtd: { forwarderIds: ["FWD9"], revision: 1 },
    });
    await post(bkd("12345723"), later(1));
    // The stored grant applied when the route map was created.
    expect((await repo.get(trigger.awb))?.xtdForwarders).toEqual(["FWD9"]);
    expect(await repo.putTrigger({ ...trigger, forwarderId: "FWD8" }, { onlyWithoutRouteMap: true })).toBe(
      "route-map-exists",
    );
    // Refused as a whole: neither the trigger nor an early grant was written.
    expect((await itemsOf("12345723", "TRIGGER#")).map((t) => t.forwarderId)).toEqual(["FWD9"]);
    expect((await itemsOf("12345723", "CURRENT")).map((i) => i.sk)).toEqual(["CURRENT"]);
  });

  it("reads a new AWB with one call and creates it with the XTD grants recorded before it", async () => {
    const serial = "12345756";
    for (const forwarderId of ["FWD9", "FWD8", "FWD9"])
      expect(await repo.putTrigger(xtdTrigger(serial, forwarderId), { onlyWithoutRouteMap: true })).toBe(
        "written",
      );
    expect(await itemsOf(serial, "CURRENT#XTD")).toMatchObject([
      { forwarderIds: new Set(["FWD8", "FWD9"]), revision: 3 },
    ]);

    calls.length = 0;
    await post(bkd(serial), T0);
    expect(calls).toEqual(["QueryCommand", "TransactWriteItemsCommand"]);

    const record = await repo.get(awbOf(serial));
    expect(record?.xtdForwarders).toEqual(["FWD8", "FWD9"]);
    const [creation] = await itemsOf(serial, "EVT#");
    expect(creation?.event).toMatchObject({
      name: "RMP",
      eventStatus: "Creation",
      audience: { ownerAgent: null, xtdForwarders: ["FWD8", "FWD9"] },
    });
    expect((await itemsOf(serial, "READER#")).map((r) => r.readerKey)).toEqual(["FWD#FWD8", "FWD#FWD9"]);
    // The grants now live on CURRENT: the early-grants item went in the creating transaction.
    expect((await itemsOf(serial, "CURRENT")).map((i) => i.sk)).toEqual(["CURRENT"]);
  });

  it("makes a creation that an XTD sendsme raced a conflict; the retried ingest includes the grant", async () => {
    const serial = "12345760";
    let raced = false;
    // The sendsme lands after ingest read the AWB (no route map, no grants) and before it creates it.
    const racing: RouteMapRepository = {
      ...repo,
      write: async (change) => {
        if (!raced) {
          raced = true;
          expect(await repo.putTrigger(xtdTrigger(serial, "FWD7"), { onlyWithoutRouteMap: true })).toBe(
            "written",
          );
        }
        return repo.write(change);
      },
    };
    const backoffs: number[] = [];
    calls.length = 0;
    const applied = await post(bkd(serial), T0, racing, async (attempt) => {
      backoffs.push(attempt);
    });
    expect(applied).toEqual([{ awb: awbOf(serial), changed: true, events: ["RMP"] }]);
    expect(backoffs).toEqual([1]);
    expect(calls).toEqual([
      "QueryCommand",
      "TransactWriteItemsCommand", // the sendsme
      "TransactWriteItemsCommand", // the creation, refused
      "QueryCommand",
      "TransactWriteItemsCommand",
    ]);

    // Created once, with the grant: the creation event itself is addressed to the XTD reader.
    const record = await repo.get(awbOf(serial));
    expect(record).toMatchObject({ version: 1, xtdForwarders: ["FWD7"] });
    const events = await itemsOf(serial, "EVT#");
    expect(events.map((e) => [e.event.name, e.event.eventStatus, e.event.audience.xtdForwarders])).toEqual([
      ["RMP", "Creation", ["FWD7"]],
    ]);
    expect((await itemsOf(serial, "READER#")).map((r) => r.readerKey)).toEqual(["FWD#FWD7"]);
  });

  it("still reads an existing AWB with one call, and GET with one GetItem", async () => {
    const serial = "12345771";
    expect(await repo.putTrigger(xtdTrigger(serial, "FWD9"), { onlyWithoutRouteMap: true })).toBe("written");
    await post(bkd(serial), T0);
    calls.length = 0;
    await post(`FSU/13\n020-${serial}HAJJFK/T10\nRCS/14MAR0310/HAJ/T10\n`, later(1));
    expect(calls).toEqual(["QueryCommand", "TransactWriteItemsCommand"]);
    expect(await repo.getForChange(awbOf(serial))).toMatchObject({
      record: { version: 2, xtdForwarders: ["FWD9"] },
      earlyXtd: null,
    });

    calls.length = 0;
    expect((await repo.getView(awbOf(serial)))?.version).toBe(2);
    expect(calls).toEqual(["GetItemCommand"]);
  });

  it("queries the reader index with the creation range as key condition and other filters", async () => {
    const filters = {
      creationDate: { from: "2026-03-13T00:00:00Z", to: "2026-03-13T23:59:59Z" },
      deliveryDate: null,
      receiptDate: null,
      airlinePrefix: "020",
      awbNumber: null,
      origin: "HAJ",
      destination: null,
      statuses: ["Booked" as const, "Accepted" as const],
    };
    const found = await repo.queryReaders({ readerKey: "AGT#1234567#0001", filters, limit: 100 });
    expect(found.map((f) => f.AwbNumber)).toEqual(["12345675"]);
    const none = await repo.queryReaders({
      readerKey: "AGT#1234567#0001",
      filters: { ...filters, statuses: ["AtDestination" as const] },
      limit: 100,
    });
    expect(none).toEqual([]);
    const views = await repo.getViews([awbOf("12345675"), awbOf("99999992")]);
    expect(views.map((v) => v.awb.serial)).toEqual(["12345675"]);
  });
});
