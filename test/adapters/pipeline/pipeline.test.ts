/**
 * The notification pipeline on the real local path minus HTTP: outbox items written to DynamoDB
 * Local's RouteMaps table reach the match-event handler through the stream poller, jobs travel
 * through fauxqs to the deliver handler through the queue poller (Lambda's partial-batch semantics),
 * e-mail lands in the SES emulator, HTTP deliveries in a local receiver, long retries go through the
 * Scheduler stand-in. Subscriptions are written with the DynamoDB subscription repository.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createQueues,
  createTables,
  type DynamoDbLocal,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type SesEmulator,
  type SqsEmulator,
  startDynamoDbLocal,
  startSes,
  startSqs,
} from "../../../bin/local/emulators.ts";
import { crashOnceAfterFirstRecord } from "../../../bin/local/faults.ts";
import { type LambdaHandler, lambdaContext } from "../../../bin/local/lambda.ts";
import { startQueuePoller } from "../../../bin/local/queue-poller.ts";
import { type SchedulerStandIn, startSchedulerStandIn } from "../../../bin/local/scheduler-standin.ts";
import { type Poller, startStreamPoller } from "../../../bin/local/stream-poller.ts";
import { advanceClock, resetClock } from "../../../functions/adapters/clock.ts";
import { OUTBOX_INSERT_FILTER } from "../../../functions/contracts/event-functions.ts";
import {
  OUTBOX_ATTRIBUTES,
  OUTBOX_KIND,
  OUTBOX_SORT_KEY_PREFIX,
} from "../../../functions/contracts/outbox.ts";
import { deadLetterEnvVar, QUEUES, TABLES } from "../../../functions/contracts/resources.ts";
import type { DomainEvent } from "../../../functions/core/events.ts";
import {
  confirmationToRequest,
  type SubscriberIdentity,
} from "../../../functions/core/notifications/index.ts";
import type {
  DeliveryJob,
  DeliveryRecord,
  DeliveryRepository,
  SubscriptionRepository,
} from "../../../functions/core/ports/notifications.ts";
import type { DeliverJobDeps } from "../../../functions/core/use-cases/deliver-job.ts";
import { scaled } from "../../support/time.ts";
import { makeEvent, makeJwt } from "../../unit/notifications/helpers.ts";
import { emailRule, endpoint, urlRule, webhook } from "./fakes.ts";
import { type Receiver, startReceiver, waitFor } from "./receiver.ts";

let dynamo: DynamoDbLocal;
let sqsEmulator: SqsEmulator;
let sesEmulator: SesEmulator;
let standIn: SchedulerStandIn;
let receiver: Receiver;
let pollers: Poller[] = [];
let documents: DynamoDBDocumentClient;
let subscriptions: SubscriptionRepository;
let deliveries: DeliveryRepository;
let env: Record<string, string>;
/** The deliver handler the queue poller invokes; a test may swap in a crashing one. */
let deliverHandler: LambdaHandler;
type DeliverModule = typeof import("../../../functions/handlers/queue/deliver-job.ts");
let makeDeliverHandler: DeliverModule["make"];
/** The deliver handler's production dependencies, from the composition root (as its `handler` has). */
let productionDeps: () => DeliverJobDeps;
/** The deliver handler's settings from the environment (as its `handler` has: the retry scale above). */
let productionSettings: Parameters<DeliverModule["make"]>[1];

const PSK = "pipeline-pre-shared-key-0001";
const WHSEC = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
const TOKEN = makeJwt({ alg: "HS256", typ: "JWT" }, { sub: "receiver" });

beforeAll(async () => {
  [dynamo, sqsEmulator, sesEmulator, receiver] = await Promise.all([
    startDynamoDbLocal(await freePort()),
    startSqs(0),
    startSes(await freePort()),
    startReceiver(),
  ]);
  const [tables, queues] = await Promise.all([
    createTables(dynamo.endpoint),
    createQueues(sqsEmulator.endpoint),
  ]);
  standIn = await startSchedulerStandIn({
    port: 0,
    sqsEndpoint: sqsEmulator.endpoint,
    resolveTarget: () => null,
  });
  env = {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_SQS: sqsEmulator.endpoint,
    AWS_ENDPOINT_URL_SES: sesEmulator.endpoint,
    AWS_ENDPOINT_URL_SCHEDULER: standIn.endpoint,
    ...tables,
    ...queues,
    DEPLOYMENT_MODE: "local",
    SCHEDULE_GROUP_NAME: "default",
    SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/local-scheduler",
    POWERTOOLS_IDEMPOTENCY_DISABLED: "false",
    POWERTOOLS_LOG_LEVEL: "ERROR",
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h -> 1, 1, 1, 1, 2, 4 s.
    DELIVERY_RETRY_SCALE: "0.0001",
    DELIVERY_TIMEOUT_MS: "1000",
  };
  // Handlers and adapters read their configuration when first used, as in Lambda.
  Object.assign(process.env, env);
  const matchModule = await import("../../../functions/handlers/stream/match-event.ts");
  const deliverModule = await import("../../../functions/handlers/queue/deliver-job.ts");
  const wiring = await import("../../../functions/wiring.ts");
  const { config } = await import("../../../functions/adapters/config.ts");
  makeDeliverHandler = deliverModule.make;
  productionSettings = config.deliverJob;
  productionDeps = () => ({
    subscriptions: wiring.subscriptions(),
    deliveries: wiring.deliveries(),
    queue: wiring.deliveryQueue(),
    retryScheduler: wiring.deliveryRetries(),
    http: wiring.httpSender(),
    email: wiring.emailSender(),
  });
  deliverHandler = deliverModule.handler as LambdaHandler;
  const { dynamoSubscriptionRepository } = await import(
    "../../../functions/adapters/subscription-repository.ts"
  );
  const { dynamoDeliveryRepository } = await import("../../../functions/adapters/delivery-repository.ts");
  subscriptions = dynamoSubscriptionRepository();
  deliveries = dynamoDeliveryRepository();
  documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  pollers = await Promise.all([
    startStreamPoller({
      endpoint: dynamo.endpoint,
      tableName: tables[TABLES.routeMaps.envVar] ?? "",
      functionName: "match-event",
      handler: async () => matchModule.handler as LambdaHandler,
      batchSize: 25,
      filter: OUTBOX_INSERT_FILTER,
      idleMs: 50,
      onError: reportError("match-event"),
    }),
    startQueuePoller({
      endpoint: sqsEmulator.endpoint,
      queueUrl: queues[QUEUES.deliveryJobs.envVar] ?? "",
      functionName: "deliver-job",
      handler: async () => (event: SQSEvent, context: Context) => deliverHandler(event, context),
      batchSize: 10,
      retryVisibilitySeconds: 1,
      onError: reportError("deliver-job"),
    }),
    // The delivery slow lane (retries of targets that timed out) feeds the same handler.
    startQueuePoller({
      endpoint: sqsEmulator.endpoint,
      queueUrl: queues[QUEUES.deliverySlowJobs.envVar] ?? "",
      functionName: "deliver-job",
      handler: async () => (event: SQSEvent, context: Context) => deliverHandler(event, context),
      batchSize: 10,
      retryVisibilitySeconds: 1,
      onError: reportError("deliver-job slow lane"),
    }),
  ]);
}, scaled(90_000));

afterAll(async () => {
  resetClock();
  for (const poller of pollers) await poller.stop();
  documents?.destroy();
  await standIn?.stop();
  await receiver?.stop();
  await Promise.all([dynamo?.stop(), sqsEmulator?.stop(), sesEmulator?.stop()]);
});

function reportError(where: string) {
  let reported = 0;
  return (error: unknown) => {
    if (reported++ < 2) console.error(`[${where}]`, error instanceof Error ? error.stack : error);
  };
}

let forwarderCount = 0;
/** A fresh forwarder per test, so one test's subscriptions never hear another test's events. */
function newForwarder(): SubscriberIdentity {
  forwarderCount += 1;
  return {
    forwarderId: `fwd-${forwarderCount}`,
    agentCode: String(1_000_000 + forwarderCount),
    agentCass: "0001",
    agentStation: "FRA",
  };
}

let eventCount = 0;
function eventFor(owner: SubscriberIdentity, overrides: Partial<DomainEvent> = {}): DomainEvent {
  eventCount += 1;
  return makeEvent({
    eventId: `evt-pipeline-${eventCount}`,
    audience: { ownerAgent: { code: owner.agentCode, cass: owner.agentCass }, xtdForwarders: [] },
    ...overrides,
  });
}

/** Writes an outbox item exactly as the route-map repository does. */
async function publish(event: DomainEvent): Promise<void> {
  await documents.send(
    new PutCommand({
      TableName: env[TABLES.routeMaps.envVar],
      Item: {
        pk: `AWB#${event.awb.prefix}${event.awb.serial}`,
        sk: `${OUTBOX_SORT_KEY_PREFIX}${event.eventId}`,
        [OUTBOX_ATTRIBUTES.kind]: OUTBOX_KIND,
        [OUTBOX_ATTRIBUTES.event]: event,
        [OUTBOX_ATTRIBUTES.expiresAt]: Math.floor(Date.now() / 1000) + 7 * 86_400,
      },
    }),
  );
}

let idCount = 100;
const nextId = () => ++idCount;

async function hook(owner: SubscriberIdentity, path: string, body: Record<string, unknown> = {}) {
  const created = webhook(nextId(), owner, { Event: "DEP", Url: `${receiver.url}${path}`, ...body });
  await subscriptions.putWebhook(created);
  return created;
}

async function recordOf(deliveryId: string): Promise<DeliveryRecord> {
  const record = await deliveries.get(deliveryId);
  if (!record) throw new Error(`no delivery ${deliveryId}`);
  return record;
}

async function settled(deliveryId: string, timeoutMs = 20_000): Promise<DeliveryRecord> {
  await waitFor(async () => {
    const record = await deliveries.get(deliveryId);
    return record !== null && (record.status === "delivered" || record.status === "parked");
  }, timeoutMs);
  return recordOf(deliveryId);
}

/** The job as an SQS record, as the event-source mapping hands it to the deliver handler. */
function sqsRecord(job: DeliveryJob, receiveCount: number): SQSRecord {
  return {
    messageId: `redelivered-${job.deliveryId}`,
    receiptHandle: "handle",
    body: JSON.stringify(job),
    attributes: { ApproximateReceiveCount: String(receiveCount) } as SQSRecord["attributes"],
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:DeliveryJobs",
    awsRegion: LOCAL_REGION,
  };
}

const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, 1500));

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}
async function emailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${sesEmulator.endpoint}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter((email) => email.destination.to.includes(address));
}

/** The address confirmed its owner's alerts, as following the mailed link does. */
async function confirmAddress(owner: SubscriberIdentity, address: string): Promise<void> {
  const { dynamoEmailConfirmationRepository } = await import(
    "../../../functions/adapters/email-confirmation-repository.ts"
  );
  const confirmations = dynamoEmailConfirmationRepository();
  const now = new Date().toISOString();
  const token = `pipeline-test-token-${owner.forwarderId}`;
  const pending = confirmationToRequest(null, { forwarderId: owner.forwarderId, address, token, now });
  if (!pending?.tokenHash) throw new Error("no pending confirmation");
  await confirmations.putPending(pending);
  const confirmed = { ...pending, status: "confirmed" as const, tokenHash: null, confirmedAt: now };
  expect(await confirmations.confirm(confirmed, pending.tokenHash)).toBe(true);
}

describe("one event, every channel", () => {
  it("e-mail, Url channel and json/xml/text webhooks each get exactly one delivery; the others nothing", async () => {
    const owner = newForwarder();
    const stranger = newForwarder();
    await subscriptions.putRule(emailRule(nextId(), owner, { Event: "DEP", NotifyTo: "ops@one.example" }));
    await confirmAddress(owner, "ops@one.example");
    const guid = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    await subscriptions.putCustomerEndpoint(endpoint(guid, owner.forwarderId, `${receiver.url}/one/url`));
    await subscriptions.putRule(urlRule(nextId(), owner, { Event: "DEP", NotifyTo: guid }));
    const json = await hook(owner, "/one/json", { Token: TOKEN, Psk: PSK });
    await hook(owner, "/one/xml", { Type: "xml", Psk: WHSEC });
    await hook(owner, "/one/text", { Type: "text", Token: TOKEN });
    // Nothing for these:
    await subscriptions.putRule(
      emailRule(nextId(), owner, { Event: "DEP", NotifyTo: "off@one.example", Enabled: false }),
    );
    await hook(owner, "/one/disabled", { Enable: false });
    await hook(owner, "/one/other-carrier", { AWB: "176" });
    await hook(owner, "/one/other-awb", { AWB: "020-11111111" });
    await hook(stranger, "/one/stranger");
    // Verification is a proof, not a gate: an enabled, unverified webhook gets it too.
    await subscriptions.putWebhook(
      webhook(nextId(), owner, { Event: "DEP", Url: `${receiver.url}/one/unverified` }, false),
    );

    const event = eventFor(owner);
    await publish(event);
    await publish(eventFor(owner, { awb: { prefix: "176", serial: "12345675" }, name: "ARR" }));

    await waitFor(async () => receiver.received.filter((p) => p.path.startsWith("/one/")).length >= 5);
    await waitFor(async () => (await emailsTo("ops@one.example")).length >= 1);
    await quietPeriod();

    const paths = receiver.received.filter((p) => p.path.startsWith("/one/")).map((p) => p.path);
    expect(paths.sort()).toEqual(["/one/json", "/one/text", "/one/unverified", "/one/url", "/one/xml"]);
    const [mail, ...moreMail] = await emailsTo("ops@one.example");
    expect(moreMail).toEqual([]);
    expect(mail?.subject).toBe("AWB 020-12345675 | MIL DEP | NTF Event");
    expect(mail?.body.html).toContain("<table");
    expect(await emailsTo("off@one.example")).toEqual([]);

    const [jsonPost] = receiver.postsTo("/one/json");
    expect(jsonPost?.headers["content-type"]).toBe("application/json");
    expect(jsonPost?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(jsonPost?.headers["webhook-id"]).toBe(`${event.eventId}:webhook-${json.id}`);
    const verified = new StandardWebhook(PSK, { format: "raw" }).verify(
      jsonPost?.body ?? "",
      jsonPost?.headers as Record<string, string>,
    ) as Record<string, unknown>;
    expect(verified).toMatchObject({ IdMessage: event.eventId, Event: "DEP", AgentCode: owner.agentCode });

    const [xmlPost] = receiver.postsTo("/one/xml");
    expect(xmlPost?.headers["content-type"]).toBe("application/xml");
    expect(xmlPost?.headers.authorization).toBeUndefined();
    new StandardWebhook(WHSEC).verify(xmlPost?.body ?? "", xmlPost?.headers as Record<string, string>, {
      jsonParse: false,
    });
    const [textPost] = receiver.postsTo("/one/text");
    expect(textPost?.headers["content-type"]).toBe("text/plain");
    expect(textPost?.headers["webhook-signature"]).toBeUndefined();
    expect(textPost?.body).toContain(`IdMessage: ${event.eventId}\n`);
    const [urlPost] = receiver.postsTo("/one/url");
    expect(urlPost?.headers.apikey).toBe("api-key-0123456789");
    expect(JSON.parse(urlPost?.body ?? "{}")).toMatchObject({
      IdMessage: event.eventId,
      AirWaybillPrefix: "020",
    });

    const record = await settled(`${event.eventId}:webhook-${json.id}`);
    expect(record.status).toBe("delivered");
    expect(record.attempts).toHaveLength(1);
    expect(record.attempts[0]).toMatchObject({ attempt: 1, status: 204, outcome: "delivered" });
  });
});

describe("faults", () => {
  it("a receiver down for 3 attempts gets the event on the 4th; the attempt log shows all 4", async () => {
    const owner = newForwarder();
    receiver.on("/flaky", { statuses: [500, 500, 500, 200] });
    const created = await hook(owner, "/flaky");
    const event = eventFor(owner);
    await publish(event);

    const record = await settled(`${event.eventId}:webhook-${created.id}`);

    expect(record.status).toBe("delivered");
    expect(record.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, "retry"],
      [2, 500, "retry"],
      [3, 500, "retry"],
      [4, 200, "delivered"],
    ]);
    expect(record.attempts[0]?.detail).toMatch(/^HTTP 500: failure 1 \(attempt 2 in 1 s\)$/);
    const posts = receiver.postsTo("/flaky");
    expect(posts).toHaveLength(4);
    // Same webhook-id on every attempt: the receiver can de-duplicate.
    expect(new Set(posts.map((p) => p.headers["webhook-id"] ?? "none")).size).toBe(1);
  });

  it(
    "a receiver that never recovers ends parked after 7 attempts, with the job kept for replay",
    async () => {
      const owner = newForwarder();
      receiver.on("/dead", { statuses: [503] });
      const created = await hook(owner, "/dead");
      const event = eventFor(owner);
      await publish(event);

      const record = await settled(`${event.eventId}:webhook-${created.id}`, 40_000);

      expect(record.status).toBe("parked");
      expect(record.attempts.map((a) => a.outcome)).toEqual([...Array(6).fill("retry"), "parked"]);
      expect(record.attempts[6]?.detail).toMatch(/retries-exhausted/);
      expect(record.job).toMatchObject({ deliveryId: record.deliveryId, attempt: 1 });
      expect(receiver.postsTo("/dead")).toHaveLength(7);
    },
    scaled(60_000),
  );

  it("429 with Retry-After is honoured (not scaled): the retry waits at least that long", async () => {
    const owner = newForwarder();
    receiver.on("/busy", { statuses: [429, 204], retryAfter: "2" });
    const created = await hook(owner, "/busy");
    const event = eventFor(owner);
    await publish(event);

    const record = await settled(`${event.eventId}:webhook-${created.id}`);

    expect(record.attempts.map((a) => [a.status, a.outcome])).toEqual([
      [429, "retry"],
      [204, "delivered"],
    ]);
    const [first, second] = receiver.postsTo("/busy");
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1900);
  });

  it("410 Gone disables the webhook and parks the delivery", async () => {
    const owner = newForwarder();
    receiver.on("/gone", { statuses: [410] });
    const created = await hook(owner, "/gone");
    const event = eventFor(owner);
    await publish(event);

    const record = await settled(`${event.eventId}:webhook-${created.id}`);

    expect(record.status).toBe("parked");
    expect(record.attempts.map((a) => [a.status, a.outcome])).toEqual([[410, "disabled"]]);
    const stored = await subscriptions.getWebhook(owner.forwarderId, created.id);
    expect(stored?.enabled).toBe(false);
    expect(stored?.disabledReason).toMatch(/410/);
    // A later event reaches it no more.
    await publish(eventFor(owner));
    await quietPeriod();
    expect(receiver.postsTo("/gone")).toHaveLength(1);
  });

  it("a receiver slower than the per-attempt timeout is retried and gets it when fast again", async () => {
    const owner = newForwarder();
    receiver.on("/slow", { delaysMs: [3000, 0], statuses: [204] });
    const created = await hook(owner, "/slow");
    const event = eventFor(owner);
    await publish(event);

    const record = await settled(`${event.eventId}:webhook-${created.id}`);

    expect(record.attempts.map((a) => [a.status, a.outcome, a.detail.split(" ")[0]])).toEqual([
      [null, "retry", "timeout"],
      [204, "delivered", "HTTP"],
    ]);
    expect(record.attempts[0]?.latencyMs).toBeGreaterThanOrEqual(900);
  });

  it("the same job redelivered while its attempt is still in flight is sent once (Powertools idempotency)", async () => {
    const owner = newForwarder();
    // The receiver holds its answer, so attempt 1 is in flight and not yet in the attempt log.
    receiver.on("/twice", { delaysMs: [1500], statuses: [204] });
    const created = await hook(owner, "/twice");
    const patience = { timeoutMs: 5000 };
    const normal = deliverHandler;
    const settings = () => ({ ...productionSettings(), ...patience });
    deliverHandler = makeDeliverHandler(productionDeps, settings) as LambdaHandler;
    try {
      const event = eventFor(owner);
      await publish(event);
      const deliveryId = `${event.eventId}:webhook-${created.id}`;
      await waitFor(() => receiver.postsTo("/twice").length === 1);
      const inFlight = await recordOf(deliveryId);
      expect(inFlight.attempts).toEqual([]);

      // A second container gets the very message (a visibility timeout): only idempotency stops it.
      const otherContainer = makeDeliverHandler(productionDeps, settings);
      const redelivery = { Records: [sqsRecord(inFlight.job, 2)] };
      await expect(otherContainer(redelivery, lambdaContext("deliver-job"))).rejects.toThrow(
        /All records failed/,
      );

      // Once the first attempt is done, the same message again is answered from the stored result.
      const record = await settled(deliveryId);
      expect(await otherContainer(redelivery, lambdaContext("deliver-job"))).toEqual({
        batchItemFailures: [],
      });
      expect(record.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([[1, 204, "delivered"]]);
    } finally {
      deliverHandler = normal;
    }
    await quietPeriod();
    expect(receiver.postsTo("/twice")).toHaveLength(1);
  });

  it(
    "a job that keeps failing parks its delivery on its last receive, instead of leaving it in progress",
    async () => {
      const owner = newForwarder();
      receiver.on("/stuck", { statuses: [503] });
      const created = await hook(owner, "/stuck");
      const normal = deliverHandler;
      // The retry cannot be queued (SQS throttled, say): every receive of attempt 1 fails after the send.
      const refusingQueue = {
        enqueue: async () => {
          throw new Error("SQS throttled the retry");
        },
      };
      deliverHandler = makeDeliverHandler(
        () => ({
          ...productionDeps(),
          queue: refusingQueue,
        }),
        productionSettings,
      ) as LambdaHandler;
      const event = eventFor(owner);
      const deliveryId = `${event.eventId}:webhook-${created.id}`;
      try {
        await publish(event);
        await settled(deliveryId, 30_000);
      } finally {
        deliverHandler = normal;
      }
      const record = await recordOf(deliveryId);
      expect(record.status).toBe("parked");
      expect(record.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
        [1, 503, "retry"],
        [1, null, "parked"],
      ]);
      expect(record.attempts[1]?.detail).toMatch(/could not complete attempt 1 in \d tries; replay/);
      // Sent once: later receives found the answer in the log and only tried to queue the retry.
      expect(receiver.postsTo("/stuck")).toHaveLength(1);
      // Nothing went to the dead-letter queue: the delivery is visible and replayable instead.
      const sqs = new SQSClient({
        endpoint: sqsEmulator.endpoint,
        region: LOCAL_REGION,
        credentials: LOCAL_CREDENTIALS,
      });
      const dead = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: env[deadLetterEnvVar(QUEUES.deliveryJobs)],
          MaxNumberOfMessages: 10,
        }),
      );
      sqs.destroy();
      expect((dead.Messages ?? []).filter((m) => m.Body?.includes(deliveryId))).toEqual([]);
    },
    scaled(45_000),
  );

  it("a crash of the delivery handler mid-batch loses nothing and sends nothing twice", async () => {
    const owner = newForwarder();
    const hooks = [];
    for (let n = 0; n < 6; n++) hooks.push(await hook(owner, `/crash/${n}`));
    const normal = deliverHandler;
    // A second handler instance, with the production dependencies, that crashes once after one record.
    deliverHandler = crashOnceAfterFirstRecord(
      makeDeliverHandler(productionDeps, productionSettings) as LambdaHandler,
    );
    try {
      const event = eventFor(owner);
      await publish(event);
      for (const created of hooks) await settled(`${event.eventId}:webhook-${created.id}`);
      await quietPeriod();
    } finally {
      deliverHandler = normal;
    }

    for (let n = 0; n < 6; n++) expect(receiver.postsTo(`/crash/${n}`)).toHaveLength(1);
  });

  it("a Retry-After beyond 15 minutes waits in the Scheduler and is re-queued when due", async () => {
    const owner = newForwarder();
    receiver.on("/later", { statuses: [503, 204], retryAfter: "1200" });
    const created = await hook(owner, "/later", { Psk: PSK });
    const event = eventFor(owner);
    await publish(event);
    const deliveryId = `${event.eventId}:webhook-${created.id}`;
    await waitFor(async () => (await deliveries.get(deliveryId))?.status === "retrying");
    await waitFor(() => standIn.schedules().length === 1);
    expect(standIn.schedules()[0]?.Target.Arn).toMatch(/^arn:aws:sqs:us-east-1:000000000000:DeliveryJobs$/);
    await quietPeriod();
    expect(receiver.postsTo("/later")).toHaveLength(1);

    // Retry-After 1200 plus its upward jitter (up to 20 %): the stand-in fires it on its next tick.
    advanceClock(1441_000);
    try {
      const record = await settled(deliveryId);
      expect(record.attempts.map((a) => [a.status, a.outcome])).toEqual([
        [503, "retry"],
        [204, "delivered"],
      ]);
      expect(record.attempts[0]?.detail).toMatch(/attempt 2 in 1[234]\d\d s/);
    } finally {
      resetClock();
    }
    // Signed with the real time although the service clock is 24 minutes ahead: standardwebhooks
    // checks webhook-timestamp against the receiver's own clock (5 minutes' tolerance).
    const retried = receiver.postsTo("/later")[1];
    expect(() =>
      new StandardWebhook(PSK, { format: "raw" }).verify(
        retried?.body ?? "",
        retried?.headers as Record<string, string>,
      ),
    ).not.toThrow();
    expect(standIn.schedules()).toEqual([]);
  });
});
