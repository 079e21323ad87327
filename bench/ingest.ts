/**
 * Ingest: carrier messages per second through POST /carrier/messages against bare TransactWriteItems
 * writing the same items (copied from what one such message wrote) on the same DynamoDB Local, with
 * the same concurrency. Two message kinds: a booking that creates a route map (FSU/BKD on a new AWB:
 * one Query for the record and any early XTD grants, one write) and the common case, a status message
 * on an existing route map (FSU/DEP: one read, one write).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../bin/local/emulators.ts";
import { call, startRunner, tokens } from "../test/support/runner.ts";
import { bookingAndFwb, figure, HOUR, median, serialFor } from "./support.ts";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const CONCURRENCY = 16;
const ROUNDS = 3;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const departure = new Date(Date.now() + 72 * HOUR);
const DAY = `${String(departure.getUTCDate()).padStart(2, "0")}${MONTHS[departure.getUTCMonth()]}`;

const bookingMessage = (serial: string) =>
  ["FSU/13", `020-${serial}FRAJFK/T10K250.0`, `BKD/LH400/${DAY}/FRAJFK/T10K250.0/S1325/S1555`].join("\n");
/** A DEP whose actual time differs per round, so each one is a change (not a duplicate). */
const departureMessage = (serial: string, round: number) =>
  [
    "FSU/13",
    `020-${serial}FRAJFK/T10K250.0`,
    `DEP/LH9001/${DAY}/FRACGN/T10K250.0/A10${String(round).padStart(2, "0")}`,
  ].join("\n");

async function runConcurrently(count: number, task: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const stack = await startRunner({
  RATE_LIMIT_PER_SECOND: "1000000",
  RATE_LIMIT_BURST: "1000000",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  RATE_LIMIT_PER_HOUR: "1000000000",
  RATE_LIMIT_PER_DAY: "1000000000",
});
const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: stack.dynamoEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  }),
);
const token = tokens.carrier("020");
async function post(body: string, contentType = "text/plain") {
  const response = await call(stack.url, "POST", "/carrier/messages", { token, body, contentType });
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${response.text}`);
  return response.body as { Applied: Array<{ Changed: boolean }> };
}
/** Every item of one AWB's partition. */
async function partition(serial: string) {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: "RouteMaps",
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": `AWB#020${serial}` },
    }),
  );
  return Items;
}
/** The items one message wrote: the record and reader items, plus the snapshot and events it added. */
function writtenSince(items: Array<Record<string, unknown>>, before: ReadonlySet<string>) {
  return items.filter((item) => !/^(SNAP|EVT)#/.test(String(item.sk)) || !before.has(String(item.sk)));
}
async function bare(items: Array<Record<string, unknown>>, round: number, kind: string) {
  return runConcurrently(MESSAGES, async (i) => {
    const pk = `BARE#${kind}#${round}#${i}`;
    await client.send(
      new TransactWriteCommand({
        TransactItems: items.map((item) => ({
          Put: {
            TableName: "RouteMaps",
            Item: { ...item, pk },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        })),
      }),
    );
  });
}

try {
  // What one message of each kind writes: the bare baseline writes exactly these items again.
  const sample = serialFor(9_000_000);
  await post(bookingMessage(sample));
  const bookingItems = await partition(sample);
  await post(JSON.stringify(bookingAndFwb(sample, 72)), "application/json");
  const before = new Set((await partition(sample)).map((item) => String(item.sk)));
  await post(departureMessage(sample, 59));
  const departureItems = writtenSince(await partition(sample), before);
  process.stdout.write(
    `a new booking writes ${bookingItems.length} items (${bookingItems.map((i) => String(i.sk).split("#")[0]).join(", ")}); ` +
      `a DEP on an existing route map ${departureItems.length}\n`,
  );

  // Route maps for the status messages (seeded, not measured).
  const existing = Array.from({ length: MESSAGES }, (_, i) => serialFor(5_000_000 + i));
  for (let i = 0; i < existing.length; i += 16) {
    await Promise.all(
      existing
        .slice(i, i + 16)
        .map((serial) => post(JSON.stringify(bookingAndFwb(serial, 72)), "application/json")),
    );
  }

  const results = {
    booking: [] as number[],
    bookingBare: [] as number[],
    status: [] as number[],
    statusBare: [] as number[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    const base = 1_000_000 + round * 100_000;
    results.booking.push(
      await runConcurrently(MESSAGES, async (i) => void (await post(bookingMessage(serialFor(base + i))))),
    );
    results.bookingBare.push(await bare(bookingItems, round, "booking"));
    results.status.push(
      await runConcurrently(MESSAGES, async (i) => {
        const applied = await post(departureMessage(existing[i] ?? "", round));
        if (!applied.Applied[0]?.Changed)
          throw new Error("a DEP changed nothing: the benchmark would measure duplicates");
      }),
    );
    results.statusBare.push(await bare(departureItems, round, "status"));
    process.stdout.write(
      `round ${round + 1}: bookings ${results.booking.at(-1)?.toFixed(0)} msg/s vs bare ${results.bookingBare.at(-1)?.toFixed(0)} tx/s | ` +
        `status ${results.status.at(-1)?.toFixed(0)} msg/s vs bare ${results.statusBare.at(-1)?.toFixed(0)} tx/s\n`,
    );
  }
  const ratio = (a: number[], b: number[]) => ((100 * median(a)) / median(b)).toFixed(0);
  figure(
    "Ingest vs bare TransactWriteItems",
    `status messages ${median(results.status).toFixed(0)} msg/s vs ${median(results.statusBare).toFixed(0)} tx/s of ${departureItems.length} items = ${ratio(results.status, results.statusBare)}%; ` +
      `new bookings ${median(results.booking).toFixed(0)} vs ${median(results.bookingBare).toFixed(0)} = ${ratio(results.booking, results.bookingBare)}% (goal >= 50%)`,
  );
} finally {
  client.destroy();
  await stack.stop();
}
