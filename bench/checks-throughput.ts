/**
 * Due checks per second the run-due-check handler sustains locally: DynamoDB Local (route maps,
 * subscriptions), fauxqs and the Scheduler stand-in, the production handler module invoked with real
 * SQSEvent batches of 10 (the event-source batch size), 8 invocations at a time (Lambda concurrency).
 * Each check takes the full path: read the route map, record Missing (TransactWriteItems: record +
 * snapshot + outbox Missed event + reader item), look up the ProActive rules that may hear, and
 * upsert one proactive schedule. Route maps are seeded through the ingest use case with DEP ahead,
 * then the in-process clock moves past it. Median of 3 rounds, fresh AWBs each round. After each
 * round (outside the timing) every check is verified to have done that work: its route map records
 * DEP Missing and its proactive schedule exists; anything less fails the run instead of printing a
 * rate for work that was not done.
 */
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
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
import { bookingAndFwb, figure, HOUR, median, serialFor } from "./support.ts";

const CHECKS = Number(process.env.BENCH_CHECKS ?? 400);
const ROUNDS = 3;
const BATCH = 10;
const CONCURRENCY = 8;
const SEED_CONCURRENCY = 8;

const dynamo = await startDynamoDbLocal(await freePort());
const sqsEmulator = await startSqs(0);
const stops: Array<() => Promise<void>> = [dynamo.stop, sqsEmulator.stop];
try {
  const [tables, queues] = await Promise.all([
    createTables(dynamo.endpoint),
    createQueues(sqsEmulator.endpoint),
  ]);
  const standIn = await startSchedulerStandIn({
    port: 0,
    sqsEndpoint: sqsEmulator.endpoint,
    resolveTarget: () => null,
    tickMs: 3_600_000, // nothing fires during the benchmark
  });
  stops.unshift(standIn.stop);
  // Handlers and adapters read these (as in Lambda), so they are set before any import of them.
  Object.assign(process.env, tables, queues, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_SQS: sqsEmulator.endpoint,
    AWS_ENDPOINT_URL_SCHEDULER: standIn.endpoint,
    SCHEDULE_GROUP_NAME: "default",
    SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/local-scheduler",
    POWERTOOLS_LOG_LEVEL: "ERROR",
  });
  const { advanceClock, nowIso } = await import("../functions/adapters/clock.ts");
  const { jitteredBackoff } = await import("../functions/adapters/backoff.ts");
  const { dynamoRouteMapRepository } = await import("../functions/adapters/route-map-repository.ts");
  const { dynamoSubscriptionRepository } = await import("../functions/adapters/subscription-repository.ts");
  const { ingestCarrierMessage } = await import("../functions/core/use-cases/ingest-carrier-message.ts");
  const { handler } = await import("../functions/handlers/queue/run-due-check.ts");
  const { checkScheduleName } = await import("../functions/adapters/check-scheduler.ts");

  const routeMaps = dynamoRouteMapRepository();
  const subscriptions = dynamoSubscriptionRepository();
  const owner = { forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001", agentStation: "FRA" };
  const ruleBase = {
    owner,
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
  await subscriptions.putRule({ ...ruleBase, id: 1, alert: { kind: "Missed" } });
  await subscriptions.putRule({ ...ruleBase, id: 2, alert: { kind: "ProActive", minutes: 240 } });

  /** Seeds `count` route maps (truck departing in 1 h: FRA:DEP planned in 2 h); returns their checks. */
  async function seed(round: number, count: number): Promise<string[]> {
    const bodies: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async () => {
        while (next < count) {
          const serial = serialFor(8_000_000 + round * 100_000 + next++);
          const now = nowIso();
          await ingestCarrierMessage(
            { routeMaps, carriers: { get: async () => null }, backoff: jitteredBackoff },
            {
              carrierPrefix: "020",
              contentType: "application/json",
              body: JSON.stringify(bookingAndFwb(serial, 1, Date.parse(now))),
              now,
            },
          );
          const record = await routeMaps.get({ prefix: "020", serial });
          const plannedUtc = record?.state.planned["FRA:DEP"]?.plannedUtc;
          if (!plannedUtc) throw new Error(`seeding ${serial} planned no FRA:DEP`);
          bodies.push(
            JSON.stringify({ awb: `020${serial}`, milestoneKey: "FRA:DEP", plannedUtc, check: "missing" }),
          );
        }
      }),
    );
    return bodies;
  }

  const sqsRecord = (body: string, id: string): SQSRecord => ({
    messageId: id,
    receiptHandle: id,
    body,
    attributes: {} as SQSRecord["attributes"],
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: queues.DUE_CHECKS_QUEUE_ARN ?? "",
    awsRegion: LOCAL_REGION,
  });

  /** Throws unless every check recorded Missing and upserted its 240-minute proactive schedule. */
  async function verify(bodies: string[], what: string): Promise<string> {
    const scheduleNames = new Set(standIn.schedules().map((schedule) => schedule.Name));
    const notMissing: string[] = [];
    const notScheduled: string[] = [];
    for (const body of bodies) {
      const check = JSON.parse(body) as { awb: string; milestoneKey: string; plannedUtc: string };
      const record = await routeMaps.get({ prefix: check.awb.slice(0, 3), serial: check.awb.slice(3) });
      if (!record?.state.missed.includes(`${check.milestoneKey}@${check.plannedUtc}`))
        notMissing.push(check.awb);
      const proactive = { ...check, check: "proactive" as const, minutes: 240 };
      if (!scheduleNames.has(checkScheduleName(proactive))) notScheduled.push(check.awb);
    }
    if (notMissing.length > 0 || notScheduled.length > 0) {
      throw new Error(
        `${what}: of ${bodies.length} checks, ${notMissing.length} recorded no Missing ` +
          `(${notMissing.slice(0, 3).join(", ")}) and ${notScheduled.length} scheduled no proactive check ` +
          `(${notScheduled.slice(0, 3).join(", ")}): the rate would measure work not done`,
      );
    }
    return `verified: ${bodies.length} Missing recorded, ${bodies.length} proactive schedules`;
  }

  async function runChecks(bodies: string[]): Promise<{ perSecond: number; failures: number }> {
    const batches: SQSEvent[] = [];
    for (let i = 0; i < bodies.length; i += BATCH) {
      batches.push({ Records: bodies.slice(i, i + BATCH).map((body, j) => sqsRecord(body, `m-${i + j}`)) });
    }
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let batch = batches.shift(); batch; batch = batches.shift()) {
          const context: Context = lambdaContext("run-due-check", 60_000);
          const response = (await handler(batch, context)) as { batchItemFailures: unknown[] };
          failures += response.batchItemFailures.length;
        }
      }),
    );
    return { perSecond: bodies.length / ((performance.now() - started) / 1000), failures };
  }

  // Warm-up (JIT of Node and of DynamoDB Local's JVM), not measured.
  const warm = await seed(9, 50);
  advanceClock(3 * HOUR);
  await runChecks(warm);
  await verify(warm, "warm-up");

  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const bodies = await seed(round, CHECKS);
    advanceClock(3 * HOUR); // every seeded FRA:DEP is now overdue
    const { perSecond, failures } = await runChecks(bodies);
    if (failures > 0) throw new Error(`${failures} checks failed in round ${round + 1}`);
    const verified = await verify(bodies, `round ${round + 1}`);
    rates.push(perSecond);
    process.stdout.write(
      `round ${round + 1}: ${CHECKS} missing checks, ${perSecond.toFixed(0)} checks/s (${verified})\n`,
    );
  }
  figure(
    "due checks per second (run-due-check handler, Missing recorded + proactive scheduled, median of 3)",
    median(rates).toFixed(0),
  );
} finally {
  for (const stop of stops) await stop().catch(() => undefined);
}
