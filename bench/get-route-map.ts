/**
 * GET /ffw/service/routemap/{awb} through the local runner against bare GetItem calls for the same item
 * on the same DynamoDB Local, side by side in one run (autocannon, 50 connections). The ratio shows
 * what our layers (HTTP front, authorizer, handler, adapter) cost on top of the storage's own limit.
 *
 * Same bytes on both sides: the adapter reads CURRENT with a projection (its VIEW_PROJECTION, which
 * the module does not export), so the bare side sends the very GetItem input the adapter's getView
 * sends, captured from one real call with an SDK middleware rather than copied: if the adapter's read
 * changes, the baseline changes with it.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, type GetCommandInput } from "@aws-sdk/lib-dynamodb";
import autocannon from "autocannon";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../bin/local/emulators.ts";
import { TABLES } from "../functions/contracts/resources.ts";
import { call, startRunner, tokens } from "../test/support/runner.ts";
import { bookingAndFwb, figure, median, percentile, serialFor } from "./support.ts";

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 3;

/**
 * The GetItem input the production adapter sends for `GET /ffw/service/routemap/{awb}` (getView),
 * captured from one call through the real adapter against the runner's DynamoDB Local.
 */
async function adapterGetInput(endpoint: string, awb: { prefix: string; serial: string }) {
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  const { dynamo } = await import("../functions/adapters/aws-clients.ts");
  const { dynamoRouteMapRepository } = await import("../functions/adapters/route-map-repository.ts");
  let captured: GetCommandInput | undefined;
  // At "initialize", before the document client marshals it: plain values, ready for a GetCommand.
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === "GetItemCommand") captured = structuredClone(args.input as GetCommandInput);
      return next(args);
    },
    { step: "initialize", name: "captureAdapterGet" },
  );
  const view = await dynamoRouteMapRepository(TABLES.routeMaps.id).getView(awb);
  dynamo().destroy();
  if (!view || !captured) throw new Error("the adapter read nothing: cannot capture its GetItem input");
  if (!captured.ProjectionExpression)
    throw new Error("the adapter's GetItem has no projection any more: revisit this baseline");
  return captured;
}

async function bareGetItem(endpoint: string, input: GetCommandInput, seconds: number) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 }),
  );
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      await client.send(new GetCommand(input));
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  client.destroy();
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function main() {
  const stack = await startRunner({
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "1000000",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    RATE_LIMIT_PER_HOUR: "1000000000",
    RATE_LIMIT_PER_DAY: "1000000000",
    POWERTOOLS_LOG_LEVEL: "ERROR",
  });
  try {
    const serial = serialFor(7_100_001);
    await call(stack.url, "PUT", "/support/carriers/020", {
      token: tokens.support(),
      json: { Name: "Bench Cargo", QualityProgram: true, Xtd: true },
    });
    const ingest = await call(stack.url, "POST", "/carrier/messages", {
      token: tokens.carrier("020"),
      json: bookingAndFwb(serial),
    });
    if (ingest.status !== 200) throw new Error(`seeding failed: ${ingest.status} ${ingest.text}`);
    const path = `/ffw/service/routemap/020${serial}`;
    const token = tokens.forwarder();
    const check = await call(stack.url, "GET", path, { token });
    if (check.status !== 200) throw new Error(`GET failed: ${check.status} ${check.text}`);

    // Warm-up: JIT of the runner and of DynamoDB Local's JVM, not measured.
    await autocannon({
      url: `${stack.url}${path}`,
      connections: CONNECTIONS,
      duration: 3,
      headers: { authorization: `Bearer ${token}` },
    });
    const getInput = await adapterGetInput(stack.dynamoEndpoint, { prefix: "020", serial });
    process.stdout.write(`bare GetItem reads what the adapter reads: ${getInput.ProjectionExpression}\n`);
    await bareGetItem(stack.dynamoEndpoint, getInput, 3);

    const api: Array<{ rps: number; p50: number; p99: number }> = [];
    const bare: Array<{ rps: number; p50: number; p99: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const result = await autocannon({
        url: `${stack.url}${path}`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${token}` },
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`GET errors: ${result.non2xx} non-2xx, ${result.errors} errors`);
      api.push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
      bare.push(await bareGetItem(stack.dynamoEndpoint, getInput, SECONDS));
      process.stdout.write(
        `round ${round + 1}: GET ${api.at(-1)?.rps.toFixed(0)} req/s (p50 ${api.at(-1)?.p50} ms, p99 ${api.at(-1)?.p99} ms) | ` +
          `bare GetItem ${bare.at(-1)?.rps.toFixed(0)} req/s (p50 ${bare.at(-1)?.p50.toFixed(1)} ms, p99 ${bare.at(-1)?.p99.toFixed(1)} ms)\n`,
      );
    }
    const apiRps = median(api.map((r) => r.rps));
    const bareRps = median(bare.map((r) => r.rps));
    process.stdout.write(
      `median: GET ${apiRps.toFixed(0)} req/s, p50 ${median(api.map((r) => r.p50))} ms, p99 ${median(api.map((r) => r.p99))} ms; ` +
        `bare GetItem ${bareRps.toFixed(0)} req/s, p50 ${median(bare.map((r) => r.p50)).toFixed(1)} ms, p99 ${median(bare.map((r) => r.p99)).toFixed(1)} ms\n`,
    );
    figure(
      "GET route map vs bare GetItem",
      `${apiRps.toFixed(0)} vs ${bareRps.toFixed(0)} req/s = ${((100 * apiRps) / bareRps).toFixed(0)}% (goal >= 70%), p50 ${median(api.map((r) => r.p50))} ms, p99 ${median(api.map((r) => r.p99))} ms`,
    );
  } finally {
    await stack.stop();
  }
}

await main();
