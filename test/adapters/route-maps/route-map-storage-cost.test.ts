/**
 * The route-map repository's cheaper writes against DynamoDB Local, with the guarantees
 * they must keep: the record and snapshots stored compressed read back exactly as written (the
 * in-memory repository, which stores plain values, is the reference); the history endpoint answers as
 * before; items written before the change (plain JSON) stay readable and move to the new format on
 * their next change; reader items are rewritten only when a search field or the readers change; a
 * record-only change is one conditional PutItem that still refuses a stale version; and every call
 * reports its consumed capacity.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTables,
  type DynamoDbLocal,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../../../bin/local/emulators.ts";
import type { CapacityUse } from "../../../functions/adapters/consumed-capacity.ts";
import type { ForwarderIdentity } from "../../../functions/core/identity.ts";
import type { RouteMapRepository } from "../../../functions/core/ports/route-maps.ts";
import { getRouteMapHistory } from "../../../functions/core/use-cases/get-route-map-history.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { searchFieldsOf } from "../../../functions/core/use-cases/shared/route-map-writes.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";

let emulator: DynamoDbLocal;
let repo: RouteMapRepository;
let doc: DynamoDBDocumentClient;
/** Commands the adapter sent, and the sort keys each transaction wrote (cleared by the tests). */
const calls: string[] = [];
const transactionKeys: string[][] = [];
const capacity: CapacityUse[] = [];
/** ReturnConsumedCapacity of each call as sent (after every middleware of the initialize step). */
const asked: Array<string | undefined> = [];
let listening: () => void = () => undefined;
let stopListening: () => void = () => undefined;

beforeAll(async () => {
  emulator = await startDynamoDbLocal(await freePort());
  Object.assign(process.env, await createTables(emulator.endpoint, { expireItems: false }), {
    AWS_ENDPOINT_URL_DYNAMODB: emulator.endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoRouteMapRepository } = await import("../../../functions/adapters/route-map-repository.ts");
  const { dynamo } = await import("../../../functions/adapters/aws-clients.ts");
  const { onConsumedCapacity } = await import("../../../functions/adapters/consumed-capacity.ts");
  repo = dynamoRouteMapRepository();
  listening = () => {
    stopListening = onConsumedCapacity((use) => capacity.push(use));
  };
  listening();
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      asked.push((args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity);
      return next(args);
    },
    { step: "build", name: "recordCapacityRequest" },
  );
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(context.commandName ?? "unknown");
      const input = args.input as { TransactItems?: Array<{ Put?: { Item: { sk: string } } }> };
      if (input.TransactItems)
        transactionKeys.push(input.TransactItems.flatMap((item) => (item.Put ? [item.Put.Item.sk] : [])));
      return next(args);
    },
    { step: "initialize", name: "recordCalls" },
  );
  doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: emulator.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
});

afterAll(async () => {
  doc?.destroy();
  await emulator?.stop();
});

const T0 = "2026-03-13T10:00:00.000Z";
const later = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const awbOf = (serial: string) => ({ prefix: "020", serial });
const reader: ForwarderIdentity = {
  role: "forwarder",
  forwarderId: "ACMECARGO",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "HAJ",
};
const post = (routeMaps: RouteMapRepository, body: string, now: string) =>
  ingestCarrierMessage(
    { routeMaps, carriers: { get: async () => null }, backoff: async () => undefined },
    { carrierPrefix: "020", contentType: "text/plain", body, now },
  );
const bkd = (serial: string) =>
  `FSU/13\n020-${serial}HAJJFK/T10K250.0\nBKD/LH9350/14MAR/HAJFRA/T10/S0600/S0930\nBKD/LH400/14MAR/FRAJFK/T10/S1325/S1555\n`;
const fwb = (serial: string) => `FWB/16\n020-${serial}HAJJFK/T10K250.0\nAGT//1234567/0001\n`;
const status = (serial: string, line: string) => `FSU/13\n020-${serial}HAJJFK/T10\n${line}\n`;
/** A journey: booking, FWB, acceptance, both legs flown, a status beyond the milestones. */
const journey = (serial: string) => [
  bkd(serial),
  fwb(serial),
  status(serial, "RCS/14MAR0310/HAJ/T10"),
  status(serial, "DEP/LH9350/14MAR/HAJFRA/T10/A0605"),
  status(serial, "ARR/LH9350/14MAR0925/FRA/T10"),
  status(serial, "FOH/14MAR1000/FRA/T10"),
  status(serial, "DEP/LH400/14MAR/FRAJFK/T10/A1330"),
];

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

/** Every history page of one AWB as the endpoint's use case answers it. */
async function historyPages(routeMaps: RouteMapRepository, serial: string, now: string) {
  const pages = [];
  for (let page = 1; page <= 4; page++)
    pages.push(
      await getRouteMapHistory({ routeMaps }, { awb: awbOf(serial), reader, now, page, pageSize: 3 }),
    );
  return pages;
}

describe("route-map storage cost", () => {
  it("stores record and snapshots compressed and reads back exactly what the plain store holds", async () => {
    const serial = "12345675";
    const memory = memoryRouteMapRepository();
    for (const [i, message] of journey(serial).entries()) {
      await post(repo, message, later(i));
      await post(memory, message, later(i));
    }
    const [current] = await itemsOf(serial, "CURRENT");
    expect(current).toMatchObject({ codec: 1, version: 7 });
    expect(current?.stateZ).toBeInstanceOf(Uint8Array);
    expect(current?.routeMapZ).toBeInstanceOf(Uint8Array);
    expect(current).not.toHaveProperty("state");
    expect(current).not.toHaveProperty("routeMapJson");
    const snapshots = await itemsOf(serial, "SNAP#");
    expect(
      snapshots.every((s) => s.codec === 1 && s.routeMapZ instanceof Uint8Array && !s.routeMapJson),
    ).toBe(true);

    const awb = awbOf(serial);
    expect(await repo.get(awb)).toEqual(await memory.get(awb));
    expect(await repo.getView(awb)).toEqual(await memory.getView(awb));
    expect(await repo.getForChange(awb)).toEqual(await memory.getForChange(awb));
    expect(await repo.snapshots(awb, later(60))).toEqual(await memory.snapshots(awb, later(60)));
    // The history endpoint's answers, page by page, are those of the plain store.
    expect(await historyPages(repo, serial, later(60))).toEqual(
      await historyPages(memory, serial, later(60)),
    );
  });

  it("reads items written before compression and moves them to the new format on their next change", async () => {
    const serial = "12345686";
    const memory = memoryRouteMapRepository();
    const [first, second, ...rest] = journey(serial);
    // Snapshots of that time named no message they came from (provenance came later).
    const beforeProvenance: RouteMapRepository = {
      ...memory,
      write: (change) =>
        memory.write({
          ...change,
          snapshot: change.snapshot && {
            routeMapJson: change.snapshot.routeMapJson,
            snapshotAt: change.snapshot.snapshotAt,
          },
        }),
    };
    for (const [i, message] of [first, second].entries())
      await post(beforeProvenance, message ?? "", later(i));
    // The items as the adapter wrote them before the write-cost work: plain aggregate and rendered JSON.
    const record = await memory.get(awbOf(serial));
    if (!record) throw new Error("no record");
    const pk = `AWB#020${serial}`;
    await doc.send(
      new PutCommand({
        TableName: "RouteMaps",
        Item: {
          pk,
          sk: "CURRENT",
          awb11: `020${serial}`,
          origin: record.origin,
          destination: record.destination,
          state: record.state,
          version: record.version,
          routeMapJson: record.routeMapJson,
          staleAfter: record.staleAfter ?? undefined,
          ownerAgent: record.ownerAgent ?? undefined,
          xtdForwarders: record.xtdForwarders,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
        },
      }),
    );
    for (const [i, snapshot] of (await memory.snapshots(awbOf(serial), later(10))).entries()) {
      await doc.send(
        new PutCommand({
          TableName: "RouteMaps",
          Item: {
            pk,
            sk: `SNAP#${snapshot.snapshotAt}#${String(record.version - i).padStart(8, "0")}`,
            routeMapJson: snapshot.routeMapJson,
            snapshotAt: snapshot.snapshotAt,
            expiresAt: Math.floor(Date.parse(record.createdAt) / 1000) + 30 * 86_400,
          },
        }),
      );
    }
    const fields = searchFieldsOf(JSON.parse(record.routeMapJson));
    await doc.send(
      new PutCommand({
        TableName: "RouteMaps",
        Item: {
          pk,
          sk: "READER#AGT#1234567#0001",
          readerKey: "AGT#1234567#0001",
          readerSort: `${fields.CreationDate}#020${serial}`,
          ...fields,
          DeliveryDate: undefined,
          ReceiptDate: undefined,
        },
      }),
    );

    const awb = awbOf(serial);
    expect(await repo.get(awb)).toEqual(record);
    expect(await repo.getView(awb)).toEqual(await memory.getView(awb));
    expect(await repo.snapshotPage(awb, later(10), { page: 1, pageSize: 5 })).toEqual(
      await memory.snapshotPage(awb, later(10), { page: 1, pageSize: 5 }),
    );

    for (const [i, message] of rest.entries()) {
      await post(repo, message, later(2 + i));
      await post(memory, message, later(2 + i));
    }
    const [current] = await itemsOf(serial, "CURRENT");
    expect(current).toMatchObject({ codec: 1 });
    expect(current).not.toHaveProperty("state");
    expect(await repo.get(awb)).toEqual(await memory.get(awb));
    // Old and new snapshots together: the history reads as if all had been written alike.
    expect(await historyPages(repo, serial, later(60))).toEqual(
      await historyPages(memory, serial, later(60)),
    );
  });

  it("rewrites reader items only when a search field or the readers change", async () => {
    const serial = "12345690";
    const written: Record<string, boolean> = {};
    for (const [i, message] of journey(serial).entries()) {
      transactionKeys.length = 0;
      await post(repo, message, later(i));
      const name = message.split("\n")[2]?.slice(0, 3) ?? "";
      written[`${i}:${name}`] = transactionKeys.flat().some((sk) => sk.startsWith("READER#"));
    }
    expect(written).toEqual({
      "0:BKD": false, // no reader yet (the FWB names the owner)
      "1:AGT": true, // a new reader
      "2:RCS": true, // Booked -> Accepted
      "3:DEP": true, // Accepted -> OnAir
      "4:ARR": false, // still OnAir
      "5:FOH": false, // history only
      "6:DEP": false, // still OnAir
    });
    const [readerItem] = await itemsOf(serial, "READER#");
    const view = await repo.getView(awbOf(serial));
    expect(readerItem?.Status).toBe(JSON.parse(view?.routeMapJson ?? "{}").Status);
    expect(readerItem?.Status).toBe("OnAir");
  });

  it("writes a record-only change as one conditional PutItem that still refuses a stale version", async () => {
    const serial = "12345701";
    for (const [i, message] of journey(serial).slice(0, 2).entries()) await post(repo, message, later(i));
    const current = await repo.get(awbOf(serial));
    if (!current) throw new Error("no record");
    const fields = searchFieldsOf(JSON.parse(current.routeMapJson));
    const change = {
      previous: current,
      next: { ...current, version: current.version + 1, updatedAt: later(30) },
      snapshot: null,
      events: [],
      searchFields: fields,
      previousSearchFields: fields,
    };
    calls.length = 0;
    expect(await repo.write(change)).toBe("written");
    expect(calls).toEqual(["PutItemCommand"]);
    // The same change again starts from a version that moved on: no lost update.
    expect(await repo.write(change)).toBe("conflict");
    expect((await repo.get(awbOf(serial)))?.version).toBe(current.version + 1);
    expect(await itemsOf(serial, "SNAP#")).toHaveLength(2);
  });

  it("reports the capacity of every call by table and command", async () => {
    const serial = "12345712";
    capacity.length = 0;
    await post(repo, bkd(serial), T0);
    await repo.getView(awbOf(serial));
    const operations = capacity.map((use) => use.operation);
    expect(operations).toEqual(["RouteMaps.Query", "RouteMaps.TransactWriteItems", "RouteMaps.GetItem"]);
    expect(capacity[1]?.writeUnits).toBeGreaterThan(0);
    expect(capacity[2]?.readUnits).toBeGreaterThan(0);
  });

  it("asks for the capacity only when its answer is used (metrics on, or a listener)", async () => {
    expect(process.env.POWERTOOLS_METRICS_DISABLED).toBe("true");
    stopListening();
    try {
      asked.length = 0;
      await repo.getView(awbOf("12345712"));
      expect(asked).toEqual([undefined]);
    } finally {
      listening();
    }
    asked.length = 0;
    await repo.getView(awbOf("12345712"));
    expect(asked).toEqual(["TOTAL"]);
  });
});
