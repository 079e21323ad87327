/**
 * The delivery adapters against the local emulators: the SQS job queue (fauxqs), the SES e-mail
 * sender (aws-ses-v2-local) and the retry scheduler through the local EventBridge Scheduler stand-in,
 * whose SQS targets put the job back on the delivery queue.
 */
import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createQueues,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type SesEmulator,
  type SqsEmulator,
  startSes,
  startSqs,
} from "../../../bin/local/emulators.ts";
import {
  type SchedulerStandIn,
  sqsQueueName,
  startSchedulerStandIn,
} from "../../../bin/local/scheduler-standin.ts";
import { atExpression } from "../../../functions/adapters/check-scheduler.ts";
import { advanceClock, resetClock } from "../../../functions/adapters/clock.ts";
import { configFrom } from "../../../functions/adapters/config.ts";
import { sqsDeliveryJobQueue } from "../../../functions/adapters/delivery-job-queue.ts";
import {
  queueArnFromUrl,
  retryScheduleName,
  schedulerDeliveryRetryScheduler,
} from "../../../functions/adapters/delivery-retry-scheduler.ts";
import { isRetryableSesError, sesEmailSender } from "../../../functions/adapters/email-sender.ts";
import { QUEUES } from "../../../functions/contracts/resources.ts";
import type { DeliveryJob } from "../../../functions/core/ports/notifications.ts";
import { firstJob } from "../../../functions/core/use-cases/shared/deliveries.ts";
import { makeEvent, OWNER } from "../../unit/notifications/helpers.ts";

let sqsEmulator: SqsEmulator;
let sesEmulator: SesEmulator;
let standIn: SchedulerStandIn;
let queueUrl: string;
let sqs: SQSClient;
const lambdaCalls: unknown[] = [];

beforeAll(async () => {
  [sqsEmulator, sesEmulator] = await Promise.all([startSqs(0), startSes(await freePort())]);
  const queues = await createQueues(sqsEmulator.endpoint);
  queueUrl = queues[QUEUES.deliveryJobs.envVar] ?? "";
  standIn = await startSchedulerStandIn({
    port: 0,
    sqsEndpoint: sqsEmulator.endpoint,
    resolveTarget: (arn) =>
      arn.endsWith(":function:run-due-check")
        ? async () => async (event: unknown) => {
            lambdaCalls.push(event);
          }
        : null,
    tickMs: 60_000, // the tests tick by hand
  });
  // The adapters' shared SDK clients find the emulators through the SDK's endpoint variables.
  Object.assign(process.env, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_SQS: sqsEmulator.endpoint,
    AWS_ENDPOINT_URL_SES: sesEmulator.endpoint,
    AWS_ENDPOINT_URL_SCHEDULER: standIn.endpoint,
    [QUEUES.deliveryJobs.envVar]: queueUrl,
    SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/local-scheduler",
    SCHEDULE_GROUP_NAME: "default",
    // Mandatory outside the local runner: a retry schedule that cannot deliver must land somewhere.
    SCHEDULER_DLQ_ARN: SCHEDULER_DLQ_ARN,
  });
  sqs = new SQSClient({
    endpoint: sqsEmulator.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
});

afterAll(async () => {
  resetClock();
  sqs?.destroy();
  await standIn?.stop();
  await Promise.all([sqsEmulator?.stop(), sesEmulator?.stop()]);
});

function job(n: number, attempt = 1): DeliveryJob {
  const event = makeEvent({ eventId: `evt-${n}` });
  return {
    ...firstJob(event, {
      deliveryId: `evt-${n}:webhook-1`,
      subscriptionKind: "webhook",
      subscriptionId: 1,
      forwarderId: OWNER.forwarderId,
      recipient: OWNER,
      targetKind: "webhook",
      url: "https://hooks.example/x",
      payloadType: "json",
    }),
    attempt,
  };
}

/** Receives (and deletes) messages until `count` arrived or the time is up. */
async function drain(count: number, timeoutMs = 8000): Promise<Message[]> {
  const messages: Message[] = [];
  const deadline = Date.now() + timeoutMs;
  while (messages.length < count && Date.now() < deadline) {
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ["All"],
      }),
    );
    const batch = received.Messages ?? [];
    messages.push(...batch);
    if (batch.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
        }),
      );
    }
  }
  return messages;
}

describe("SQS delivery-job queue", () => {
  it("sends any number of jobs in batches of 10, bodies are the jobs as JSON", async () => {
    const jobs = Array.from({ length: 23 }, (_, i) => job(i));
    await sqsDeliveryJobQueue().enqueue(jobs);
    const messages = await drain(23);
    const bodies = messages.map((m) => JSON.parse(m.Body ?? "{}") as DeliveryJob);
    expect(bodies.map((b) => b.deliveryId).sort()).toEqual(jobs.map((j) => j.deliveryId).sort());
    expect(bodies[0]).toEqual(jobs.find((j) => j.deliveryId === bodies[0]?.deliveryId));
    expect(messages[0]?.MessageAttributes?.Attempt?.StringValue).toBe("1");
  });

  it("DelaySeconds hides a retry until it is due", async () => {
    await sqsDeliveryJobQueue().enqueue([job(100, 2)], 2);
    const early = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 0 }));
    expect(early.Messages ?? []).toEqual([]);
    const later = await drain(1, 6000);
    expect(later.map((m) => (JSON.parse(m.Body ?? "{}") as DeliveryJob).attempt)).toEqual([2]);
  });
});

describe("SES e-mail sender", () => {
  it("sends HTML and text with the configured sender, readable in the emulator's store", async () => {
    const sender = sesEmailSender(configFrom({ SENDER_ADDRESS: "alerts@tracker.example" }).emailSender());
    const result = await sender.send({
      to: "ops@fwd.example",
      subject: "AWB 020-12345675 | MIL DEP",
      html: "<p>DEP</p>",
      text: "DEP",
    });
    expect(result.kind).toBe("sent");
    const store = (await (await fetch(`${sesEmulator.endpoint}/store`)).json()) as {
      emails: Array<{
        from: string;
        subject: string;
        destination: { to: string[] };
        body: { html?: string; text?: string };
      }>;
    };
    const sent = store.emails.find((e) => e.subject === "AWB 020-12345675 | MIL DEP");
    expect(sent).toMatchObject({
      from: "alerts@tracker.example",
      destination: { to: ["ops@fwd.example"] },
      body: { html: "<p>DEP</p>", text: "DEP" },
    });
  });

  it("classifies SES errors: throttling, server faults and no answer retry; a refusal does not", () => {
    expect(isRetryableSesError({ name: "Throttling", $metadata: { httpStatusCode: 400 } })).toBe(true);
    expect(isRetryableSesError({ name: "X", $fault: "server", $metadata: { httpStatusCode: 500 } })).toBe(
      true,
    );
    expect(isRetryableSesError(new Error("socket hang up"))).toBe(true);
    expect(
      isRetryableSesError({ name: "MessageRejected", $fault: "client", $metadata: { httpStatusCode: 400 } }),
    ).toBe(false);
  });
});

const SCHEDULER_DLQ_ARN = `arn:aws:sqs:${LOCAL_REGION}:000000000000:SchedulerDlq`;

describe("retry scheduler", () => {
  it("names, times and targets a one-time schedule that puts the job back on the delivery queue", async () => {
    const retry = job(200, 4);
    const at = new Date(Date.now() + 1800_000).toISOString();
    await schedulerDeliveryRetryScheduler().scheduleRetry(retry, at);
    // The same retry scheduled twice (a redelivered job) is one schedule.
    await schedulerDeliveryRetryScheduler().scheduleRetry(retry, at);

    const [schedule, ...others] = standIn.schedules();
    expect(others).toEqual([]);
    expect(schedule).toMatchObject({
      Name: retryScheduleName(retry.deliveryId, 4),
      GroupName: "default",
      ScheduleExpression: atExpression(at),
      FlexibleTimeWindow: { Mode: "OFF" },
      ActionAfterCompletion: "DELETE",
      Target: {
        Arn: queueArnFromUrl(queueUrl, LOCAL_REGION),
        Input: JSON.stringify(retry),
        DeadLetterConfig: { Arn: SCHEDULER_DLQ_ARN },
      },
    });
    expect(await standIn.tick()).toBe(0); // not due yet

    advanceClock(1801_000);
    try {
      expect(await standIn.tick()).toBe(1);
    } finally {
      resetClock();
    }
    const [message] = await drain(1);
    expect(JSON.parse(message?.Body ?? "{}")).toEqual(retry);
    expect(standIn.schedules()).toEqual([]); // deleted after completion
  });

  it("the stand-in still invokes Lambda targets", async () => {
    const { CreateScheduleCommand } = await import("@aws-sdk/client-scheduler");
    const { scheduler } = await import("../../../functions/adapters/aws-clients.ts");
    await scheduler().send(
      new CreateScheduleCommand({
        Name: "due-check-1",
        ScheduleExpression: atExpression(new Date(Date.now() - 1000).toISOString()),
        FlexibleTimeWindow: { Mode: "OFF" },
        ActionAfterCompletion: "DELETE",
        Target: {
          Arn: `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:run-due-check`,
          RoleArn: "arn:aws:iam::000000000000:role/x",
          Input: JSON.stringify({ awb: "02012345675" }),
        },
      }),
    );
    expect(await standIn.tick()).toBe(1);
    expect(lambdaCalls).toEqual([{ awb: "02012345675" }]);
  });

  it("schedule names stay within [0-9a-zA-Z-_.] and 64 characters, distinct per delivery and attempt", () => {
    expect(retryScheduleName("evt-1.webhook-3", 2)).toBe("retry-evt-1.webhook-3-2");
    const long = `${"e".repeat(36)}:webhook-123456`;
    const names = [retryScheduleName(long, 2), retryScheduleName(long, 3), retryScheduleName(`${long}7`, 2)];
    for (const name of names) {
      expect(name).toMatch(/^[0-9a-zA-Z_.-]{1,64}$/);
    }
    expect(new Set(names).size).toBe(3);
    // ":" and "_" sanitise alike; the hash keeps them apart.
    expect(retryScheduleName("a:b", 1)).not.toBe(retryScheduleName("a_b", 1));
  });

  it("at() is UTC, whole seconds, never early; queue ARNs come from AWS and emulator URLs", () => {
    expect(atExpression("2026-03-14T13:12:00.000Z")).toBe("at(2026-03-14T13:12:00)");
    expect(atExpression("2026-03-14T13:12:00.001Z")).toBe("at(2026-03-14T13:12:01)");
    expect(queueArnFromUrl("https://sqs.eu-west-1.amazonaws.com/123456789012/Jobs", "us-east-1")).toBe(
      "arn:aws:sqs:eu-west-1:123456789012:Jobs",
    );
    expect(
      queueArnFromUrl("http://sqs.us-east-1.127.0.0.1:4566/000000000000/DeliveryJobs", "us-east-1"),
    ).toBe("arn:aws:sqs:us-east-1:000000000000:DeliveryJobs");
    expect(sqsQueueName("arn:aws:sqs:us-east-1:000000000000:DeliveryJobs")).toBe("DeliveryJobs");
    expect(sqsQueueName("arn:aws:lambda:us-east-1:000000000000:function:x")).toBeNull();
  });
});
