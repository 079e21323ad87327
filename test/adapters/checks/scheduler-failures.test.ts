/**
 * How both Scheduler adapters (due checks, delivery retries) fail, against a fake Scheduler endpoint
 * that answers what a test tells it to: an exhausted service quota fails at once (one request, a
 * logged SchedulerQuotaExceededError) while throttling is still retried; and outside the local
 * runner no schedule is created without a dead-letter queue.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Logger } from "@aws-lambda-powertools/logger";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type CheckSchedulerConfig,
  eventBridgeCheckScheduler,
  SchedulerConfigurationError,
  SchedulerQuotaExceededError,
} from "../../../functions/adapters/check-scheduler.ts";
import { configFrom } from "../../../functions/adapters/config.ts";
import {
  type RetrySchedulerConfig,
  schedulerDeliveryRetryScheduler,
} from "../../../functions/adapters/delivery-retry-scheduler.ts";
import type { DeliveryJob } from "../../../functions/core/ports/notifications.ts";

interface Answer {
  status: number;
  errorType?: string;
}
/** Answers given in order; when none is left, success. */
let answers: Answer[] = [];
const requests: Array<{ method: string; path: string; body: Record<string, unknown> }> = [];
let server: Server;
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        body: JSON.parse(text || "{}"),
      });
      const answer = answers.shift() ?? { status: 200 };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (answer.errorType) headers["x-amzn-errortype"] = answer.errorType;
      response.writeHead(answer.status, headers);
      response.end(
        JSON.stringify(
          answer.errorType ? { Message: `${answer.errorType} from the fake` } : { ScheduleArn: "arn:fake" },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, {
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_SCHEDULER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    // The SDK's own retries off: every request the adapter makes reaches the fake exactly once.
    AWS_MAX_ATTEMPTS: "1",
  });
});

afterAll(async () => {
  process.env = saved;
  await new Promise((resolve) => server?.close(resolve));
});

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  answers = [];
  requests.length = 0;
  errors = vi.spyOn(Logger.prototype, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  errors.mockRestore();
});

const checkConfig = (overrides: Partial<CheckSchedulerConfig> = {}): CheckSchedulerConfig => ({
  groupName: "default",
  roleArn: "arn:aws:iam::000000000000:role/scheduler",
  queueArn: "arn:aws:sqs:us-east-1:000000000000:DueChecks",
  queueUrl: "http://127.0.0.1:9/000000000000/DueChecks",
  deadLetterArn: "arn:aws:sqs:us-east-1:000000000000:SchedulerDlq",
  local: false,
  ...overrides,
});
const planned = {
  input: {
    awb: "02012345675",
    milestoneKey: "FRA:DEP",
    plannedUtc: "2030-03-14T13:25:00Z",
    check: "missing" as const,
  },
  at: "2030-03-14T13:25:01Z",
};

const retryConfig = (overrides: Partial<RetrySchedulerConfig> = {}): RetrySchedulerConfig => ({
  groupName: "default",
  roleArn: "arn:aws:iam::000000000000:role/scheduler",
  queueArn: "arn:aws:sqs:us-east-1:000000000000:DeliveryJobs",
  deadLetterArn: "arn:aws:sqs:us-east-1:000000000000:SchedulerDlq",
  local: false,
  ...overrides,
});
const job = { deliveryId: "evt-1~rule-1", attempt: 4 } as DeliveryJob;

describe("ServiceQuotaExceededException fails fast", () => {
  it("due checks: one request, a SchedulerQuotaExceededError naming the schedule, logged", async () => {
    answers = [{ status: 402, errorType: "ServiceQuotaExceededException" }];
    const failure = await eventBridgeCheckScheduler(() => checkConfig())
      .schedule([planned])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchedulerQuotaExceededError);
    expect((failure as Error).message).toMatch(/chk-02012345675-FRA\.DEP-missing.*quota/);
    expect(requests).toHaveLength(1);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/service quota exceeded/);
  });

  it("due checks: throttling is still retried (and then succeeds)", async () => {
    answers = [
      { status: 429, errorType: "ThrottlingException" },
      { status: 429, errorType: "ThrottlingException" },
    ];
    await eventBridgeCheckScheduler(() => checkConfig()).schedule([planned]);
    expect(requests.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    expect(errors).not.toHaveBeenCalled();
  });

  it("delivery retries: one request, a SchedulerQuotaExceededError, logged", async () => {
    answers = [{ status: 402, errorType: "ServiceQuotaExceededException" }];
    const failure = await schedulerDeliveryRetryScheduler(() => retryConfig())
      .scheduleRetry(job, "2030-03-14T13:25:00Z")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchedulerQuotaExceededError);
    expect(requests).toHaveLength(1);
    expect(errors).toHaveBeenCalledTimes(1);
  });
});

describe("the schedule dead-letter queue is mandatory outside the local runner", () => {
  it("due checks: no DLQ and not local -> a configuration error, nothing sent", async () => {
    const failure = await eventBridgeCheckScheduler(() => checkConfig({ deadLetterArn: null }))
      .schedule([planned])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchedulerConfigurationError);
    expect((failure as Error).message).toMatch(/SCHEDULER_DLQ_ARN/);
    expect(requests).toHaveLength(0);
  });

  it("due checks: the local runner may create one without", async () => {
    await eventBridgeCheckScheduler(() => checkConfig({ deadLetterArn: null, local: true })).schedule([
      planned,
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.Target).not.toHaveProperty("DeadLetterConfig");
  });

  it("delivery retries: no DLQ and not local -> a configuration error, nothing sent; local may", async () => {
    const { deadLetterArn: _none, ...withoutDlq } = retryConfig();
    const failure = await schedulerDeliveryRetryScheduler(() => withoutDlq)
      .scheduleRetry(job, "2030-03-14T13:25:00Z")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchedulerConfigurationError);
    expect(requests).toHaveLength(0);
    await schedulerDeliveryRetryScheduler(() => ({ ...withoutDlq, local: true })).scheduleRetry(
      job,
      "2030-03-14T13:25:00Z",
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.Target).not.toHaveProperty("DeadLetterConfig");
  });

  it("local mode comes from DEPLOYMENT_MODE=local, which only the local runner sets", () => {
    const required = {
      SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/scheduler",
      DUE_CHECKS_QUEUE_ARN: "arn:aws:sqs:us-east-1:000000000000:DueChecks",
      DUE_CHECKS_QUEUE_URL: "http://127.0.0.1:9/000000000000/DueChecks",
      DELIVERY_QUEUE_URL: "http://127.0.0.1:9/000000000000/DeliveryJobs",
    };
    const checkSchedulerConfigFromEnv = (env: Record<string, string>) =>
      configFrom({ ...required, ...env }).checkScheduler();
    const retrySchedulerConfigFromEnv = (env: Record<string, string>) =>
      configFrom({ ...required, ...env }).retryScheduler();
    expect(checkSchedulerConfigFromEnv({ DEPLOYMENT_MODE: "local" }).local).toBe(true);
    expect(checkSchedulerConfigFromEnv({ DEPLOYMENT_MODE: "production" }).local).toBe(false);
    expect(checkSchedulerConfigFromEnv({}).local).toBe(false);
    expect(checkSchedulerConfigFromEnv({}).deadLetterArn).toBeNull();
    expect(retrySchedulerConfigFromEnv({ DEPLOYMENT_MODE: "local" }).local).toBe(true);
    expect(retrySchedulerConfigFromEnv({}).local).toBe(false);
  });
});
