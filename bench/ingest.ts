/**
 * Ingest: carrier messages per second through POST /carrier/messages (one Cargo-IMP FSU/BKD per new
 * AWB) against bare TransactWriteItems writing the same items (copied from what one message wrote)
 * on the same DynamoDB Local, with the same concurrency.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../bin/local/emulators.ts";
import { call, startRunner, tokens } from "../test/support/runner.ts";
import { figure, HOUR, median, serialFor } from "./support.ts";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1500);
const CONCURRENCY = 16;
const ROUNDS = 3;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

function bookingMessage(serial: string): string {
  const departure = new Date(Date.now() + 72 * HOUR);
  const day = `${String(departure.getUTCDate()).padStart(2, "0")}${MONTHS[departure.getUTCMonth()]}`;
  return ["FSU/13", `020-${serial}FRAJFK/T10K250.0`, `BKD/LH400/${day}/FRAJFK/T10K250.0/S1325/S1555`].join(
    "\n",
  );
}

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

const stack = await startRunner({ RATE_LIMIT_PER_SECOND: "1000000", RATE_LIMIT_BURST: "1000000" });
const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: stack.dynamoEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  }),
);
try {
  const token = tokens.carrier("020");
  const post = async (serial: string) => {
    const response = await call(stack.url, "POST", "/carrier/messages", {
      token,
      body: bookingMessage(serial),
      contentType: "text/plain",
    });
    if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${response.text}`);
  };
  // What one message writes: the bare baseline writes exactly these items again.
  const sample = serialFor(9_000_000);
  await post(sample);
  const { Items: written = [] } = await client.send(
    new QueryCommand({
      TableName: "RouteMaps",
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": `AWB#020${sample}` },
    }),
  );
  process.stdout.write(
    `one message writes ${written.length} items: ${written.map((item) => String(item.sk).split("#")[0]).join(", ")}\n`,
  );

  const api: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const base = 1_000_000 + round * 100_000;
    api.push(await runConcurrently(MESSAGES, (i) => post(serialFor(base + i))));
    bare.push(
      await runConcurrently(MESSAGES, async (i) => {
        const pk = `BARE#${round}#${i}`;
        await client.send(
          new TransactWriteCommand({
            TransactItems: written.map((item) => ({
              Put: {
                TableName: "RouteMaps",
                Item: { ...item, pk },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            })),
          }),
        );
      }),
    );
    process.stdout.write(
      `round ${round + 1}: ingest ${api.at(-1)?.toFixed(0)} msg/s | bare TransactWriteItems ${bare.at(-1)?.toFixed(0)} tx/s\n`,
    );
  }
  const apiMedian = median(api);
  const bareMedian = median(bare);
  figure(
    "Ingest vs bare TransactWriteItems",
    `${apiMedian.toFixed(0)} msg/s vs ${bareMedian.toFixed(0)} tx/s of ${written.length} items = ${((100 * apiMedian) / bareMedian).toFixed(0)}% (goal >= 50%)`,
  );
} finally {
  client.destroy();
  await stack.stop();
}
