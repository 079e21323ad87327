/**
 * The Scheduler adapter against the local stand-in and fauxqs: deterministic names, create-then-update
 * (a replan moves the check, never duplicates it), the schedule's shape (at() UTC, window OFF, DELETE
 * after completion, DLQ, queue target + role), firing on the shared clock into the DueChecks queue,
 * and direct sends of checks already due.
 */
import { ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createQueues,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type SqsEmulator,
  startSqs,
} from "../../../bin/local/emulators.ts";
import { type SchedulerStandIn, startSchedulerStandIn } from "../../../bin/local/scheduler-standin.ts";
import {
  atExpression,
  type CheckSchedulerConfig,
  checkScheduleName,
  eventBridgeCheckScheduler,
} from "../../../functions/adapters/check-scheduler.ts";
import { advanceClock, resetClock } from "../../../functions/adapters/clock.ts";
import type { DueCheckInput } from "../../../functions/core/route-map/due-checks.ts";

let sqsEmulator: SqsEmulator;
let standIn: SchedulerStandIn;
let queues: Record<string, string>;
let config: CheckSchedulerConfig;
let client: SQSClient;

beforeAll(async () => {
  sqsEmulator = await startSqs(0);
  queues = await createQueues(sqsEmulator.endpoint);
  standIn = await startSchedulerStandIn({
    port: 0,
    sqsEndpoint: sqsEmulator.endpoint,
    resolveTarget: () => null,
    tickMs: 60_000, // the test ticks explicitly
  });
  // The adapters' shared SDK clients read these when first created.
  Object.assign(process.env, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_SCHEDULER: standIn.endpoint,
    AWS_ENDPOINT_URL_SQS: sqsEmulator.endpoint,
  });
  config = {
    groupName: "default",
    roleArn: "arn:aws:iam::000000000000:role/local-scheduler",
    queueArn: queues.DUE_CHECKS_QUEUE_ARN ?? "",
    queueUrl: queues.DUE_CHECKS_QUEUE_URL ?? "",
    deadLetterArn: queues.SCHEDULER_DLQ_ARN ?? null,
    local: false,
  };
  client = new SQSClient({
    endpoint: sqsEmulator.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
});

afterAll(async () => {
  resetClock();
  client?.destroy();
  await standIn?.stop();
  await sqsEmulator?.stop();
});

async function receiveAll(queueUrl: string): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (let round = 0; round < 3; round++) {
    const { Messages } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    for (const m of Messages ?? []) bodies.push(JSON.parse(m.Body ?? "null"));
    if (bodies.length > 0 && (Messages ?? []).length === 0) break;
  }
  return bodies;
}

const check = (overrides: Partial<DueCheckInput> = {}): DueCheckInput => ({
  awb: "02012345675",
  milestoneKey: "FRA:DEP",
  plannedUtc: "2030-03-14T13:25:00Z",
  check: "missing",
  ...overrides,
});

describe("schedule names and expressions", () => {
  it("are deterministic, readable, at most 64 characters of [0-9a-zA-Z-_.], distinct per check", () => {
    expect(checkScheduleName(check())).toBe("chk-02012345675-FRA.DEP-missing");
    expect(checkScheduleName(check({ plannedUtc: "2031-01-01T00:00:00Z" }))).toBe(checkScheduleName(check()));
    expect(checkScheduleName(check({ check: "proactive", minutes: 240 }))).toBe(
      "chk-02012345675-FRA.DEP-proactive-240",
    );
    expect(checkScheduleName(check({ check: "proactive", minutes: 60 }))).not.toBe(
      checkScheduleName(check({ check: "proactive", minutes: 240 })),
    );
    const odd = checkScheduleName(check({ milestoneKey: `${"X".repeat(60)}:DEP/ä` }));
    expect(odd).toMatch(/^[0-9a-zA-Z_.-]{1,64}$/);
    expect(odd).not.toBe(checkScheduleName(check({ milestoneKey: `${"X".repeat(60)}:DEP/ö` })));
  });

  it("at() is UTC to the second, rounded up", () => {
    expect(atExpression("2030-03-14T13:25:01Z")).toBe("at(2030-03-14T13:25:01)");
    expect(atExpression("2030-03-14T13:25:01.200Z")).toBe("at(2030-03-14T13:25:02)");
  });
});

describe("EventBridge Scheduler adapter (local stand-in)", () => {
  it("creates, then updates the same schedule when the check moves", async () => {
    const scheduler = eventBridgeCheckScheduler(() => config);
    await scheduler.schedule([{ input: check(), at: "2030-03-14T13:25:01Z" }]);
    const moved = check({ plannedUtc: "2030-03-14T15:25:00Z" });
    await scheduler.schedule([{ input: moved, at: "2030-03-14T15:25:01Z" }]);
    const mine = standIn.schedules().filter((s) => s.Name === "chk-02012345675-FRA.DEP-missing");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      GroupName: "default",
      ScheduleExpression: "at(2030-03-14T15:25:01)",
      ScheduleExpressionTimezone: "UTC",
      FlexibleTimeWindow: { Mode: "OFF" },
      ActionAfterCompletion: "DELETE",
      Target: {
        Arn: config.queueArn,
        RoleArn: config.roleArn,
        DeadLetterConfig: { Arn: config.deadLetterArn },
      },
    });
    expect(JSON.parse(mine[0]?.Target.Input ?? "{}")).toEqual(moved);
  });

  it("fires on the shared clock into the DueChecks queue and deletes itself", async () => {
    const scheduler = eventBridgeCheckScheduler(() => config);
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const input = check({ milestoneKey: "JFK:ARR", plannedUtc: soon });
    await scheduler.schedule([{ input, at: soon }]);
    expect(await standIn.tick()).toBe(0);
    advanceClock(3_600_000 + 2_000);
    expect(await standIn.tick()).toBeGreaterThanOrEqual(1);
    expect(await receiveAll(config.queueUrl)).toContainEqual(input);
    expect(standIn.schedules().some((s) => s.Name === checkScheduleName(input))).toBe(false);
  });

  it("sends checks already due straight to the queue", async () => {
    const scheduler = eventBridgeCheckScheduler(() => config);
    const inputs = Array.from({ length: 12 }, (_, i) => check({ milestoneKey: `K${i}:DEP` }));
    await scheduler.enqueue(inputs.map((input) => ({ input, delaySeconds: 0 })));
    const received = await receiveAll(config.queueUrl);
    for (const input of inputs) expect(received).toContainEqual(input);
  });
});
