/**
 * DynamoDB capacity per business operation, measured: every call the production handlers make through
 * the shared document client asks for its consumed capacity (functions/adapters/consumed-capacity.ts)
 * and this script sums what they report while one operation runs. Everything goes through the real
 * handlers (HTTP pipeline with its rate-limit counter, the stream consumer on real stream records, the
 * deliverer on a real queue message, the due check on a real check body) against DynamoDB Local,
 * fauxqs and the Scheduler stand-in, in this process. Powertools' idempotency record (deliver-job)
 * uses its own DynamoDB client: it is counted by asking that client for the same report.
 *
 * Prints read/write units per operation with the breakdown by `<table>.<command>`, the stored sizes
 * of the route map's record and snapshot, and the 3-leg status message against the baseline measured
 * before the write-cost work (BASELINE below, with its commit). docs/cost.md turns these into dollars.
 */
import { type ConsumedCapacity, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyEvent, DynamoDBRecord, SQSRecord } from "aws-lambda";
import {
  createQueues,
  createTables,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
  startSqs,
} from "../bin/local/emulators.ts";
import { lambdaContext } from "../bin/local/lambda.ts";
import { startSchedulerStandIn } from "../bin/local/scheduler-standin.ts";
import { startStreamPoller } from "../bin/local/stream-poller.ts";
import { toPair } from "../functions/core/time/station-time.ts";
import { startReceiver } from "../test/adapters/pipeline/receiver.ts";
import { figure, HOUR, median, serialFor } from "./support.ts";

/**
 * Measured with this script on the tree of commit 60b1798 (before the write-cost work;
 * only the capacity report added), 2026-11-24: write units of one status message on a 3-leg route map,
 * mean over its journey (RCS, DEP and ARR of each leg), for the whole ingest request (route-map change
 * and rate-limit counter), its RouteMaps part, and that transaction's units by item (billed double);
 * and the history-only status (FOH) of the same route map.
 */
const BASELINE = {
  commit: "60b1798",
  statusWrite3Legs: 38.7,
  routeMapsWrite3Legs: 37.7,
  byItem3Legs: { CURRENT: 19.7, SNAP: 12.9, EVT: 2.3, READER: 2.9 } as Record<string, number>,
  historyOnlyWrite: 25,
  /** Stored sizes of the 3-leg route map after its journey (bytes, DynamoDB's size rules). */
  currentBytes: 10734,
  snapshotBytes: 6510,
};

const AWBS_PER_SIZE = Number(process.env.BENCH_COST_AWBS ?? 3);
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
/** Station chains of the 1-, 3- and 6-leg route maps. */
const ROUTES: Record<number, string[]> = {
  1: ["FRA", "JFK"],
  3: ["FRA", "AMS", "LHR", "JFK"],
  6: ["FRA", "AMS", "LHR", "JFK", "ORD", "LAX", "NRT"],
};
const OWNER = { forwarder_id: "ACMECARGO", agent_code: "1234567", agent_cass: "0001", agent_station: "FRA" };

const [dynamoLocal, sqsEmulator, receiver] = await Promise.all([
  startDynamoDbLocal(await freePort()),
  startSqs(0),
  startReceiver(),
]);
const stops: Array<() => Promise<void>> = [dynamoLocal.stop, sqsEmulator.stop, receiver.stop];
try {
  const [tables, queues] = await Promise.all([
    createTables(dynamoLocal.endpoint),
    createQueues(sqsEmulator.endpoint),
  ]);
  const standIn = await startSchedulerStandIn({
    port: 0,
    sqsEndpoint: sqsEmulator.endpoint,
    resolveTarget: () => null,
    tickMs: 3_600_000, // nothing fires during the benchmark
  });
  stops.unshift(standIn.stop);
  Object.assign(process.env, tables, queues, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoLocal.endpoint,
    AWS_ENDPOINT_URL_SQS: sqsEmulator.endpoint,
    AWS_ENDPOINT_URL_SCHEDULER: standIn.endpoint,
    DEPLOYMENT_MODE: "local",
    SCHEDULE_GROUP_NAME: "default",
    SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/local-scheduler",
    POWERTOOLS_IDEMPOTENCY_DISABLED: "false",
    POWERTOOLS_METRICS_DISABLED: "true",
    POWERTOOLS_LOG_LEVEL: "ERROR",
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "1000000",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    RATE_LIMIT_PER_HOUR: "1000000000",
    RATE_LIMIT_PER_DAY: "1000000000",
  });

  const { onConsumedCapacity, unitsOf } = await import("../functions/adapters/consumed-capacity.ts");
  const uses: Array<{ operation: string; readUnits: number; writeUnits: number }> = [];
  /** What DynamoDB Local itself reported for transactions (kept for the comparison line). */
  const reportedTransactions: number[] = [];
  onConsumedCapacity((use) => {
    // Transactions are counted item by item below (DynamoDB Local's own total is wrong for them).
    if (use.operation.endsWith(".TransactWriteItems")) reportedTransactions.push(use.writeUnits);
    else uses.push(use);
  });

  /*
   * DynamoDB Local under-reports TransactWriteItems: items whose capacity comes out alike are counted
   * once (probed: two new 1.5 KB items report 4 units, not 2 x (2 + 2) = 8; four 100-byte items 2, not
   * 8). AWS bills every item. So each transaction's items are replayed one by one, without their
   * conditions, into mirror tables of the same definition (indexes included) and DynamoDB Local's
   * report of each single write is summed and doubled, as AWS bills a transaction; a ConditionCheck
   * counts 1 unit (as DynamoDB Local reports it inside a transaction). The mirror holds what earlier
   * transactions wrote, so an overwrite is billed on the larger of the old and new item, as in AWS.
   */
  const { createTable } = await import("../bin/local/emulators.ts");
  const { TABLES } = await import("../functions/contracts/resources.ts");
  const { DeleteItemCommand, PutItemCommand, UpdateItemCommand } = await import("@aws-sdk/client-dynamodb");
  const mirrorClient = new DynamoDBClient({
    endpoint: dynamoLocal.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const mirrorOf = new Map<string, string>();
  for (const table of Object.values(TABLES)) {
    await createTable(mirrorClient, `${table.id}Mirror`, table);
    mirrorOf.set(table.id, `${table.id}Mirror`);
  }
  type Marshalled = Record<string, unknown>;
  interface TransactItemInput {
    Put?: { TableName: string; Item: Marshalled };
    Delete?: { TableName: string; Key: Marshalled };
    Update?: {
      TableName: string;
      Key: Marshalled;
      UpdateExpression: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Marshalled;
    };
    ConditionCheck?: unknown;
  }
  /** CPU the replays took during the current measurement (not the handler's: left out of its CPU). */
  let replayCpuMicros = 0;
  /** Transaction items replayed during the current measurement: their kind (sort-key prefix) and units. */
  const itemUses: Array<{ kind: string; units: number }> = [];
  const kindOf = (item: TransactItemInput) => {
    const key = (item.Put?.Item ?? item.Delete?.Key ?? item.Update?.Key) as
      | { sk?: { S?: string } }
      | undefined;
    return item.ConditionCheck ? "ConditionCheck" : ((key?.sk?.S ?? "?").split("#")[0] ?? "?");
  };
  async function itemUnits(item: TransactItemInput): Promise<{ table: string; units: number }> {
    const single = async (
      table: string,
      send: (mirror: string) => Promise<{ ConsumedCapacity?: ConsumedCapacity }>,
    ) => {
      const output = await send(mirrorOf.get(table) ?? "");
      return { table, units: output.ConsumedCapacity?.CapacityUnits ?? 0 };
    };
    const tableOf = (name: string) =>
      Object.values(TABLES).find((t) => process.env[t.envVar] === name)?.id ?? name;
    if (item.Put) {
      const { TableName, Item } = item.Put;
      return single(tableOf(TableName), (mirror) =>
        mirrorClient.send(
          new PutItemCommand({ TableName: mirror, Item: Item as never, ReturnConsumedCapacity: "TOTAL" }),
        ),
      );
    }
    if (item.Delete) {
      const { TableName, Key } = item.Delete;
      return single(tableOf(TableName), (mirror) =>
        mirrorClient.send(
          new DeleteItemCommand({ TableName: mirror, Key: Key as never, ReturnConsumedCapacity: "TOTAL" }),
        ),
      );
    }
    if (item.Update) {
      const { TableName, Key, UpdateExpression, ExpressionAttributeNames, ExpressionAttributeValues } =
        item.Update;
      return single(tableOf(TableName), (mirror) =>
        mirrorClient.send(
          new UpdateItemCommand({
            TableName: mirror,
            Key: Key as never,
            UpdateExpression,
            ExpressionAttributeNames,
            ExpressionAttributeValues: ExpressionAttributeValues as never,
            ReturnConsumedCapacity: "TOTAL",
          }),
        ),
      );
    }
    return { table: "ConditionCheck", units: 1 };
  }
  const { dynamo } = await import("../functions/adapters/aws-clients.ts");
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === "TransactWriteItemsCommand") {
        const items = (args.input as { TransactItems: TransactItemInput[] }).TransactItems;
        const replayStarted = process.cpuUsage();
        const perItem = await Promise.all(items.map(itemUnits));
        const replayCpu = process.cpuUsage(replayStarted);
        replayCpuMicros += replayCpu.user + replayCpu.system;
        perItem.forEach((p, i) => {
          itemUses.push({ kind: kindOf(items[i] ?? {}), units: 2 * p.units });
        });
        const table = perItem.find((p) => p.table !== "ConditionCheck")?.table ?? "Other";
        uses.push({
          operation: `${table}.TransactWriteItems`,
          readUnits: 0,
          writeUnits: 2 * perItem.reduce((sum, p) => sum + p.units, 0),
        });
      }
      return result;
    },
    // After the document client marshalled the input: the items replay as they were sent.
    { step: "build", name: "replayTransactionItems" },
  );

  // Powertools' idempotency layer creates its own DynamoDBClient: ask it for the same report.
  const plainSend = DynamoDBClient.prototype.send;
  DynamoDBClient.prototype.send = async function send(this: DynamoDBClient, ...args: unknown[]) {
    const command = args[0] as { input: Record<string, unknown>; constructor: { name: string } };
    command.input.ReturnConsumedCapacity ??= "TOTAL";
    const output = (await (plainSend as (...a: unknown[]) => Promise<unknown>).apply(this, args)) as {
      ConsumedCapacity?: ConsumedCapacity;
    };
    const name = command.constructor.name.replace(/Command$/, "");
    const consumed = output?.ConsumedCapacity;
    if (consumed && consumed.TableName === tables.IDEMPOTENCY_TABLE)
      uses.push({ operation: `Idempotency.${name}`, ...unitsOf(name, consumed) });
    return output;
  } as typeof plainSend;

  const { advanceClock, nowIso } = await import("../functions/adapters/clock.ts");
  const { OUTBOX_INSERT_FILTER } = await import("../functions/contracts/event-functions.ts");
  const wiring = await import("../functions/wiring.ts");
  const handlers = {
    ingest: (await import("../functions/handlers/http/ingest-carrier-message.ts")).handler,
    getRouteMap: (await import("../functions/handlers/http/get-route-map.ts")).handler,
    history: (await import("../functions/handlers/http/get-route-map-history.ts")).handler,
    search: (await import("../functions/handlers/http/search-route-maps.ts")).handler,
    match: (await import("../functions/handlers/stream/match-event.ts")).handler,
    deliver: (await import("../functions/handlers/queue/deliver-job.ts")).handler,
    dueCheck: (await import("../functions/handlers/queue/run-due-check.ts")).handler,
  };
  const { webhook } = await import("../test/adapters/pipeline/fakes.ts");
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: dynamoLocal.endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  const sqsClient = new SQSClient({
    endpoint: sqsEmulator.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });

  // Outbox records as the RouteMaps stream hands them to match-event (its filter), collected here.
  const streamed: DynamoDBRecord[] = [];
  const poller = await startStreamPoller({
    endpoint: dynamoLocal.endpoint,
    tableName: tables.ROUTE_MAPS_TABLE ?? "",
    functionName: "collector",
    handler: async () => async (event: { Records: DynamoDBRecord[] }) => {
      streamed.push(...event.Records);
      return { batchItemFailures: [] };
    },
    batchSize: 25,
    filter: OUTBOX_INSERT_FILTER,
  });
  stops.unshift(poller.stop);

  interface Measured {
    read: number;
    write: number;
    /** DynamoDB Local's own (low) total for the transactions, for comparison. */
    localTransactions: number;
    /** DynamoDB calls made, and this process's CPU for the operation (handler, SDK; not DynamoDB Local). */
    calls: number;
    cpuMs: number;
    /** Transaction units by item kind (CURRENT, SNAP, EVT, READER, ...), billed double. */
    byItem: Map<string, number>;
    byOperation: Map<string, { read: number; write: number }>;
  }
  /** Runs `work` and returns the capacity every DynamoDB call made meanwhile reported. */
  async function measure(work: () => Promise<unknown>): Promise<Measured> {
    uses.length = 0;
    reportedTransactions.length = 0;
    itemUses.length = 0;
    replayCpuMicros = 0;
    const cpuStarted = process.cpuUsage();
    await work();
    const cpu = process.cpuUsage(cpuStarted);
    const byOperation = new Map<string, { read: number; write: number }>();
    for (const use of uses) {
      const entry = byOperation.get(use.operation) ?? { read: 0, write: 0 };
      entry.read += use.readUnits;
      entry.write += use.writeUnits;
      byOperation.set(use.operation, entry);
    }
    const sum = (pick: (u: (typeof uses)[number]) => number) => uses.reduce((s, u) => s + pick(u), 0);
    return {
      read: sum((u) => u.readUnits),
      write: sum((u) => u.writeUnits),
      localTransactions: reportedTransactions.reduce((s, v) => s + v, 0),
      calls: uses.length,
      cpuMs: (cpu.user + cpu.system - replayCpuMicros) / 1000,
      byItem: itemUses.reduce(
        (map, use) => map.set(use.kind, (map.get(use.kind) ?? 0) + use.units),
        new Map<string, number>(),
      ),
      byOperation,
    };
  }

  function httpEvent(
    claims: Record<string, string>,
    request: {
      method: string;
      path: string;
      body?: string;
      contentType?: string;
      pathParameters?: Record<string, string>;
    },
  ): APIGatewayProxyEvent {
    return {
      resource: request.path,
      path: request.path,
      httpMethod: request.method,
      headers: request.contentType ? { "content-type": request.contentType } : {},
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: request.pathParameters ?? null,
      stageVariables: null,
      body: request.body ?? null,
      isBase64Encoded: false,
      requestContext: { requestId: "cost", authorizer: claims },
    } as unknown as APIGatewayProxyEvent;
  }
  const carrierClaims = { role: "carrier", carrier_prefix: "020" };
  const forwarderClaims = { role: "forwarder", ...OWNER };
  async function ingest(body: string, contentType = "text/plain") {
    const answer = await handlers.ingest(
      httpEvent(carrierClaims, { method: "POST", path: "/carrier/messages", body, contentType }),
      lambdaContext("ingest-carrier-message", 10_000),
    );
    if (answer.statusCode !== 200) throw new Error(`ingest answered ${answer.statusCode}: ${answer.body}`);
    const applied = JSON.parse(answer.body) as { Applied: Array<{ Changed: boolean }> };
    if (!applied.Applied.every((a) => a.Changed))
      throw new Error(`a message changed nothing: ${answer.body}`);
  }
  async function forwarderGet(handler: typeof handlers.getRouteMap, awb11: string, suffix = "") {
    const answer = await handler(
      httpEvent(forwarderClaims, {
        method: "GET",
        path: `/ffw/service/routemap/${awb11}${suffix}`,
        pathParameters: { awb: awb11 },
      }),
      lambdaContext("get", 10_000),
    );
    if (answer.statusCode !== 200) throw new Error(`GET answered ${answer.statusCode}: ${answer.body}`);
    return answer.body;
  }

  /** Station-local `YYYY-MM-DDTHH:MM` of an instant. */
  const local = (station: string, ms: number) =>
    toPair(station, new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")).Local.slice(0, 16);
  /** Cargo-IMP day (`14MAR`) and time (`1325`) of an instant at a station. */
  function imp(station: string, ms: number) {
    const text = local(station, ms);
    return {
      day: `${text.slice(8, 10)}${MONTHS[Number(text.slice(5, 7)) - 1]}`,
      time: text.slice(11, 16).replace(":", ""),
    };
  }
  interface Leg {
    flight: string;
    from: string;
    to: string;
    std: number;
    sta: number;
  }
  function legsOf(stations: string[], firstDeparture: number): Leg[] {
    return stations.slice(1).map((to, i) => {
      const std = firstDeparture + i * 5 * HOUR;
      return { flight: String(400 + i), from: stations[i] ?? "", to, std, sta: std + 3 * HOUR };
    });
  }
  /** The booking (our JSON form) of a route map over `legs`. */
  function booking(serial: string, stations: string[], legs: Leg[]) {
    return JSON.stringify({
      AirlinePrefix: "020",
      AwbNumber: serial,
      Origin: stations[0],
      Destination: stations.at(-1),
      Pieces: 10,
      WeightCode: "K",
      Weight: 250,
      Type: "BKD",
      Legs: legs.map((leg) => ({
        CarrierCode: "LH",
        FlightNumber: leg.flight,
        Date: local(leg.from, leg.std).slice(0, 10),
        Origin: leg.from,
        Destination: leg.to,
        ScheduledDeparture: local(leg.from, leg.std),
        ScheduledArrival: local(leg.to, leg.sta),
        IsRoadFeederService: false,
      })),
    });
  }
  const fwb = (serial: string, stations: string[]) =>
    `FWB/16\n020-${serial}${stations[0]}${stations.at(-1)}/T10K250.0\nAGT//1234567/0001\n`;
  /** The journey's status messages, each with the instant it reports: RCS, then DEP and ARR per leg. */
  function journey(serial: string, stations: string[], legs: Leg[]) {
    const head = `FSU/13\n020-${serial}${stations[0]}${stations.at(-1)}/T10K250.0\n`;
    const first = legs[0] as Leg;
    const rcsAt = first.std - 2 * HOUR;
    const rcs = imp(first.from, rcsAt);
    const messages = [
      { name: "RCS", at: rcsAt, body: `${head}RCS/${rcs.day}${rcs.time}/${first.from}/T10\n` },
    ];
    legs.forEach((leg, i) => {
      const dep = imp(leg.from, leg.std + 5 * 60_000);
      const arr = imp(leg.to, leg.sta + 5 * 60_000);
      const date = imp(leg.from, leg.std).day;
      messages.push({
        name: `DEP${i + 1}`,
        at: leg.std + 5 * 60_000,
        body: `${head}DEP/LH${leg.flight}/${date}/${leg.from}${leg.to}/T10K250.0/A${dep.time}\n`,
      });
      messages.push({
        name: `ARR${i + 1}`,
        at: leg.sta + 5 * 60_000,
        body: `${head}ARR/LH${leg.flight}/${arr.day}${arr.time}/${leg.to}/T10K250.0\n`,
      });
    });
    return messages;
  }
  /** Moves the in-process clock to one minute after `at` (receipt follows the reported time). */
  function receiveAfter(at: number) {
    const behind = at + 60_000 - Date.parse(nowIso());
    if (behind > 0) advanceClock(behind);
  }
  async function waitForStreamed(count: number): Promise<DynamoDBRecord[]> {
    const deadline = Date.now() + 10_000;
    while (streamed.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${streamed.length} outbox records streamed`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return streamed.splice(0, streamed.length);
  }

  /** Approximate stored size of an item (DynamoDB's rules: names + values, 3 bytes per container element). */
  function itemBytes(value: unknown): number {
    if (value === null || value === undefined || typeof value === "boolean") return 1;
    if (typeof value === "string") return Buffer.byteLength(value);
    if (typeof value === "number") return Math.ceil(String(value).replace(/^-/, "").length / 2) + 1;
    if (value instanceof Uint8Array) return value.byteLength;
    if (value instanceof Set) return [...value].reduce((s: number, v) => s + itemBytes(v), 0);
    if (Array.isArray(value)) return 3 + value.reduce((s: number, v) => s + 1 + itemBytes(v), 0);
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (s, [k, v]) => s + Buffer.byteLength(k) + 1 + itemBytes(v),
        0,
      )
    );
  }
  async function partitionItems(awb11: string) {
    const { Items = [] } = await documents.send(
      new QueryCommand({
        TableName: tables.ROUTE_MAPS_TABLE,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `AWB#${awb11}` },
      }),
    );
    return Items;
  }

  // Subscriptions of the owner: a webhook for DEP (delivered to the local receiver), and the Missed and
  // ProActive e-mail rules the due check consults.
  await wiring.subscriptions().putWebhook(
    webhook(
      1,
      { forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001", agentStation: "FRA" },
      {
        Url: `${receiver.url}/cost`,
        Event: "DEP",
      },
    ),
  );
  const ruleBase = {
    owner: { forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001", agentStation: "FRA" },
    channel: "Email" as const,
    notifyTo: "ops@forwarder.example",
    headerItems: ["AWB" as const, "MIL" as const, "NTF" as const],
    format: "Html" as const,
    airlinePrefix: null,
    awbSerial: null,
    events: ["DEP" as const],
    destination: null,
    origin: null,
    enabled: true,
    createdAt: nowIso(),
    updatedAt: nowIso(),
  };
  await wiring.subscriptions().putRule({ ...ruleBase, id: 1, alert: { kind: "Missed" } });
  await wiring.subscriptions().putRule({ ...ruleBase, id: 2, alert: { kind: "ProActive", minutes: 240 } });

  const results = new Map<string, Measured[]>();
  const add = (name: string, measured: Measured) =>
    results.set(name, [...(results.get(name) ?? []), measured]);
  const perMessage3Legs = new Map<string, Measured>();
  let sizes = "";
  let matchRecords: DynamoDBRecord[] = [];
  let historyAwb = "";

  let nextSerial = 6_100_000;
  for (const legCount of [1, 3, 6]) {
    const stations = ROUTES[legCount] ?? [];
    for (let n = 0; n < AWBS_PER_SIZE; n++) {
      const serial = serialFor(nextSerial++);
      const awb11 = `020${serial}`;
      const legs = legsOf(stations, Date.parse(nowIso()) + 4 * HOUR);
      add(
        `new booking (${legCount} leg${legCount > 1 ? "s" : ""})`,
        await measure(() => ingest(booking(serial, stations, legs), "application/json")),
      );
      add("FWB (owner named)", await measure(() => ingest(fwb(serial, stations))));
      await waitForStreamed(1);
      if (legCount === 3 && n === 0) {
        add(
          "GET route map (stored JSON exact)",
          await measure(() => forwarderGet(handlers.getRouteMap, awb11)),
        );
      }
      for (const message of journey(serial, stations, legs)) {
        receiveAfter(message.at);
        const measured = await measure(() => ingest(message.body));
        add(`status message, ${legCount}-leg route map`, measured);
        if (legCount === 3 && n === 0) perMessage3Legs.set(message.name, measured);
        const records = await waitForStreamed(1);
        if (legCount === 3 && n === 0 && message.name === "DEP2") matchRecords = records;
      }
      if (legCount === 3 && n === 0) {
        // A status beyond the milestones: history only, no snapshot, no event, no search field moved.
        const lastLeg = legs.at(-1) as Leg;
        const fohAt = lastLeg.sta + HOUR;
        const foh = imp(lastLeg.to, fohAt);
        receiveAfter(fohAt);
        add(
          "history-only status (FOH), 3-leg route map",
          await measure(() =>
            ingest(
              `FSU/13\n020-${serial}${stations[0]}${stations.at(-1)}/T10K250.0\nFOH/${foh.day}${foh.time}/${lastLeg.to}/T10\n`,
            ),
          ),
        );
        historyAwb = awb11;
        const items = await partitionItems(awb11);
        const current = items.find((item) => item.sk === "CURRENT");
        const snapshot = items.filter((item) => String(item.sk).startsWith("SNAP#")).at(-1);
        const currentBytes = itemBytes(current);
        const snapshotBytes = itemBytes(snapshot);
        sizes =
          `3-leg route map after its journey, stored: CURRENT ${currentBytes} bytes (before ${BASELINE.currentBytes}: ${(BASELINE.currentBytes / currentBytes).toFixed(1)}x smaller), ` +
          `latest snapshot ${snapshotBytes} bytes (before ${BASELINE.snapshotBytes}: ${(BASELINE.snapshotBytes / snapshotBytes).toFixed(1)}x smaller)`;
      }
    }
  }

  // GET after the journey (its planned milestones passed: re-rendered from the aggregate), history, search.
  add("GET route map (re-rendered)", await measure(() => forwarderGet(handlers.getRouteMap, historyAwb)));
  add("history (one page)", await measure(() => forwarderGet(handlers.history, historyAwb, "/history")));
  add(
    "search page (the owner's route maps, default page)",
    await measure(async () => {
      const answer = await handlers.search(
        httpEvent(forwarderClaims, {
          method: "POST",
          path: "/ffw/service/routemap",
          body: "{}",
          contentType: "application/json",
        }),
        lambdaContext("search-route-maps", 10_000),
      );
      if (answer.statusCode !== 200) throw new Error(`search answered ${answer.statusCode}: ${answer.body}`);
    }),
  );

  // Rule match: the outbox records of the 3-leg map's second DEP through match-event.
  const matchEvents = matchRecords.length;
  add(
    "rule match (match-event, one status message's outbox records)",
    await measure(async () => {
      const response = (await handlers.match(
        { Records: matchRecords },
        lambdaContext("match-event", 30_000),
      )) as {
        batchItemFailures: unknown[];
      };
      if (response.batchItemFailures.length > 0) throw new Error("match-event failed a record");
    }),
  );
  // The delivery job match-event queued, through deliver-job to the local receiver.
  const { Messages = [] } = await sqsClient.send(
    new ReceiveMessageCommand({
      QueueUrl: queues.DELIVERY_QUEUE_URL,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 2,
    }),
  );
  if (Messages.length !== 1) throw new Error(`expected one delivery job, found ${Messages.length}`);
  const job = Messages[0];
  const record: SQSRecord = {
    messageId: job?.MessageId ?? "job",
    receiptHandle: job?.ReceiptHandle ?? "",
    body: job?.Body ?? "",
    attributes: { ApproximateReceiveCount: "1" } as SQSRecord["attributes"],
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: queues.DELIVERY_QUEUE_ARN ?? "",
    awsRegion: LOCAL_REGION,
  };
  add(
    "webhook delivery with its attempt log (deliver-job)",
    await measure(async () => {
      const response = (await handlers.deliver(
        { Records: [record] },
        lambdaContext("deliver-job", 60_000),
      )) as {
        batchItemFailures: unknown[];
      };
      if (response.batchItemFailures.length > 0) throw new Error("deliver-job failed");
    }),
  );
  if (receiver.postsTo("/cost").length !== 1) throw new Error("the webhook received nothing");

  // One due check: a fresh 3-leg booking whose first departure passes unreported.
  const dueSerial = serialFor(nextSerial++);
  const dueLegs = legsOf(ROUTES[3] ?? [], Date.parse(nowIso()) + HOUR);
  await ingest(booking(dueSerial, ROUTES[3] ?? [], dueLegs), "application/json");
  await ingest(fwb(dueSerial, ROUTES[3] ?? []));
  const planned = (await wiring.routeMaps().get({ prefix: "020", serial: dueSerial }))?.state.planned[
    "FRA:DEP"
  ];
  if (!planned?.plannedUtc) throw new Error("the due-check route map planned no FRA:DEP");
  advanceClock(3 * HOUR);
  add(
    "due check (Missing recorded, proactive check scheduled)",
    await measure(async () => {
      const body = JSON.stringify({
        awb: `020${dueSerial}`,
        milestoneKey: "FRA:DEP",
        plannedUtc: planned.plannedUtc,
        check: "missing",
      });
      const response = (await handlers.dueCheck(
        {
          Records: [{ ...record, messageId: "due", body, eventSourceARN: queues.DUE_CHECKS_QUEUE_ARN ?? "" }],
        },
        lambdaContext("run-due-check", 60_000),
      )) as { batchItemFailures: unknown[] };
      if (response.batchItemFailures.length > 0) throw new Error("run-due-check failed");
    }),
  );
  const dueRecord = await wiring.routeMaps().get({ prefix: "020", serial: dueSerial });
  if (!dueRecord?.state.missed.some((m) => m.startsWith("FRA:DEP@"))) throw new Error("no Missing recorded");

  // Report.
  const mean = (list: number[]) => list.reduce((s, v) => s + v, 0) / Math.max(1, list.length);
  const fmt = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
  process.stdout.write(
    `\n${sizes}\n\noperation | read units | write units | DynamoDB calls, CPU here (median) | by <table>.<command> (mean read/write)\n`,
  );
  const summary = new Map<string, { read: number; write: number }>();
  for (const [name, list] of results) {
    const operations = new Map<string, { read: number[]; write: number[] }>();
    for (const measured of list)
      for (const [operation, units] of measured.byOperation) {
        const entry = operations.get(operation) ?? { read: [], write: [] };
        entry.read.push(units.read);
        entry.write.push(units.write);
        operations.set(operation, entry);
      }
    const read = mean(list.map((m) => m.read));
    const write = mean(list.map((m) => m.write));
    summary.set(name, { read, write });
    const parts = [...operations]
      .map(
        ([op, u]) =>
          `${op} ${fmt(u.read.reduce((s, v) => s + v, 0) / list.length)}/${fmt(u.write.reduce((s, v) => s + v, 0) / list.length)}`,
      )
      .join(", ");
    const calls = mean(list.map((m) => m.calls));
    const cpuMs = median(list.map((m) => m.cpuMs));
    process.stdout.write(
      `${name} (n=${list.length}) | ${fmt(read)} | ${fmt(write)} | ${fmt(calls)} calls, CPU ${cpuMs.toFixed(1)} ms | ${parts}\n`,
    );
  }
  process.stdout.write(
    `\n3-leg journey, per message (read/write): ${[...perMessage3Legs].map(([name, m]) => `${name} ${fmt(m.read)}/${fmt(m.write)}`).join(", ")}\n`,
  );
  process.stdout.write(`rule match: ${matchEvents} outbox record(s) of one DEP\n`);
  const status3List = results.get("status message, 3-leg route map") ?? [];
  const kinds = new Set(status3List.flatMap((m) => [...m.byItem.keys()]));
  process.stdout.write(
    `3-leg status message, transaction units by item (mean, billed double): ${[...kinds]
      .map((kind) => `${kind} ${fmt(mean(status3List.map((m) => m.byItem.get(kind) ?? 0)))}`)
      .join(", ")}\n`,
  );
  const localStatus3 = mean(
    (results.get("status message, 3-leg route map") ?? []).map((m) => m.localTransactions),
  );
  process.stdout.write(
    `3-leg status message: its transaction as DynamoDB Local totals it ${fmt(localStatus3)} units (items of equal capacity counted once), item by item as AWS bills ${fmt(
      mean(
        (results.get("status message, 3-leg route map") ?? []).map(
          (m) => m.byOperation.get("RouteMaps.TransactWriteItems")?.write ?? 0,
        ),
      ),
    )}\n`,
  );
  const status3 = summary.get("status message, 3-leg route map");
  const routeMapsWrite3 = mean(
    (results.get("status message, 3-leg route map") ?? []).map((m) =>
      [...m.byOperation].filter(([op]) => op.startsWith("RouteMaps.")).reduce((s, [, u]) => s + u.write, 0),
    ),
  );
  const afterByItem = (kind: string) => mean(status3List.map((m) => m.byItem.get(kind) ?? 0));
  process.stdout.write(
    `each change on the 3-leg status message, before (${BASELINE.commit}) -> now, units billed: ${Object.entries(
      BASELINE.byItem3Legs,
    )
      .map(([kind, units]) => `${kind} ${fmt(units)} -> ${fmt(afterByItem(kind))}`)
      .join(", ")} ` +
      "(CURRENT: aggregate and rendering compressed; SNAP: rendering compressed; READER: rewritten only when a search field moves; EVT: unchanged)\n" +
      `history-only status (FOH): ${fmt(BASELINE.historyOnlyWrite)} -> ${fmt(summary.get("history-only status (FOH), 3-leg route map")?.write ?? 0)} (a record-only change is one conditional PutItem, not a transaction)\n`,
  );
  const before = Number.isNaN(BASELINE.statusWrite3Legs)
    ? "before: this run is the baseline"
    : `before (${BASELINE.commit}): ${fmt(BASELINE.statusWrite3Legs)} (RouteMaps ${fmt(BASELINE.routeMapsWrite3Legs)}) -> now ${fmt(status3?.write ?? 0)} (RouteMaps ${fmt(routeMapsWrite3)}) = ${(BASELINE.statusWrite3Legs / (status3?.write ?? 1)).toFixed(1)}x fewer (goal >= 3x)`;
  figure(
    "DynamoDB units per operation (read/write)",
    [...summary].map(([name, u]) => `${name} ${fmt(u.read)}/${fmt(u.write)}`).join("; "),
  );
  figure(
    "Write units per status message, 3-leg route map (mean over its journey, whole request)",
    `${fmt(status3?.write ?? 0)} (RouteMaps ${fmt(routeMapsWrite3)}); ${before}`,
  );
  documents.destroy();
  sqsClient.destroy();
} finally {
  for (const stop of stops) await stop().catch(() => undefined);
}
