/**
 * The GET route-map handler's own CPU per request with storage taken out: the real handler (middleware
 * pipeline, auth context, use case, response) over the in-memory repository, in this process, against
 * a bare JSON.stringify of the same route map.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { ingestCarrierMessage } from "../functions/core/use-cases/ingest-carrier-message.ts";
import { memoryRouteMapRepository } from "../test/support/memory/route-map-repository.ts";
import { bookingAndFwb, figure, median, serialFor } from "./support.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = 5;

const routeMaps = memoryRouteMapRepository();
const serial = serialFor(7_200_002);
await ingestCarrierMessage(
  { routeMaps, carriers: { get: async () => null }, backoff: async () => undefined },
  {
    carrierPrefix: "020",
    contentType: "application/json",
    body: JSON.stringify(bookingAndFwb(serial)),
    now: new Date().toISOString(),
  },
);
// The handler's production adapters are created on first use only: this instance gets the memory one.
const { make } = await import("../functions/handlers/http/get-route-map.ts");
const handler = make(() => ({ routeMaps }));
const event = {
  resource: "/ffw/service/routemap/{awb}",
  path: `/ffw/service/routemap/020${serial}`,
  httpMethod: "GET",
  headers: {},
  multiValueHeaders: {},
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  pathParameters: { awb: `020${serial}` },
  stageVariables: null,
  body: null,
  isBase64Encoded: false,
  requestContext: {
    requestId: "bench",
    authorizer: {
      role: "forwarder",
      forwarder_id: "ACMECARGO",
      agent_code: "1234567",
      agent_cass: "0001",
      agent_station: "FRA",
    },
  },
} as unknown as APIGatewayProxyEvent;
const context = { awsRequestId: "bench" } as Context;

const first = await handler(event, context);
if (first.statusCode !== 200) throw new Error(`handler answered ${first.statusCode}: ${first.body}`);
const routeMap: unknown = JSON.parse(first.body);

function cpuMicros(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

async function cpuMicrosAsync(run: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const handlerPerRequest: number[] = [];
const stringifyPerCall: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  handlerPerRequest.push(
    (await cpuMicrosAsync(async () => {
      for (let i = 0; i < REQUESTS; i++) await handler(event, context);
    })) / REQUESTS,
  );
  let sink = 0;
  stringifyPerCall.push(
    cpuMicros(() => {
      for (let i = 0; i < REQUESTS; i++) sink += JSON.stringify(routeMap).length;
    }) / REQUESTS,
  );
  if (sink === 0) throw new Error("unreachable");
}
const handlerMedian = median(handlerPerRequest.slice(1));
const stringifyMedian = median(stringifyPerCall.slice(1));
process.stdout.write(
  `route map ${first.body.length} bytes; handler ${handlerPerRequest.map((v) => v.toFixed(1)).join(", ")} µs; ` +
    `JSON.stringify ${stringifyPerCall.map((v) => v.toFixed(1)).join(", ")} µs (first round is warm-up)\n`,
);
figure(
  "GET handler CPU without storage vs JSON.stringify",
  `${handlerMedian.toFixed(1)} vs ${stringifyMedian.toFixed(1)} µs per request = ${(handlerMedian / stringifyMedian).toFixed(2)}x (goal <= 3x)`,
);
