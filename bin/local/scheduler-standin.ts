/**
 * A local stand-in for EventBridge Scheduler that the real @aws-sdk/client-scheduler talks to
 * (restJson1: CreateSchedule, UpdateSchedule, GetSchedule, DeleteSchedule, ListSchedules,
 * CreateScheduleGroup). One-time `at()` schedules fire on the shared clock (which tests may move
 * forward) by invoking the target Lambda handler locally, or, for an SQS queue target, by sending the
 * schedule's Input to that queue (found by name); failed invocations are retried and then sent to the
 * schedule's dead-letter queue; ActionAfterCompletion DELETE removes fired schedules.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { nowMs } from "../../functions/adapters/clock.ts";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "./emulators.ts";
import { type LambdaHandler, lambdaContext } from "./lambda.ts";

const ACCOUNT = "000000000000";

export interface StoredSchedule {
  Name: string;
  GroupName: string;
  Arn: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  FlexibleTimeWindow: { Mode: string; MaximumWindowInMinutes?: number };
  Target: {
    Arn: string;
    RoleArn: string;
    Input?: string;
    DeadLetterConfig?: { Arn?: string };
    RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
  };
  ActionAfterCompletion?: string;
  State?: string;
  CreationDate: number;
  LastModificationDate: number;
  /** Epoch ms the schedule is due, parsed from at(). */
  dueAt: number;
  attempts: number;
}

export interface SchedulerStandIn {
  endpoint: string;
  /** Fires every due schedule now (the runner calls it after moving the clock). */
  tick(): Promise<number>;
  schedules(): StoredSchedule[];
  stop(): Promise<void>;
}

export interface SchedulerStandInOptions {
  port: number;
  sqsEndpoint: string;
  /** Resolves a target Lambda ARN to the local handler, or null when unknown. */
  resolveTarget(arn: string): (() => Promise<LambdaHandler>) | null;
  onError?: (error: unknown) => void;
  tickMs?: number;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
  ) {
    super(message);
  }
}

/** at(yyyy-mm-ddThh:mm:ss) in the schedule's time zone (UTC when absent, the only zone we write). */
function parseAtExpression(expression: string, timeZone: string | undefined): number {
  const match = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(expression);
  if (!match)
    throw new ApiError(
      400,
      "ValidationException",
      `Unsupported ScheduleExpression ${expression}: only at() is emulated`,
    );
  if (timeZone && timeZone !== "UTC" && timeZone !== "Etc/UTC") {
    throw new ApiError(400, "ValidationException", "Only UTC schedules are emulated locally");
  }
  return Date.parse(`${match[1]}Z`);
}

/** `arn:aws:sqs:<region>:<account>:<name>` -> name; null for any other target. */
export function sqsQueueName(arn: string): string | null {
  const match = /^arn:[^:]+:sqs:[^:]*:[^:]*:([^:]+)$/.exec(arn);
  return match?.[1] ?? null;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startSchedulerStandIn(options: SchedulerStandInOptions): Promise<SchedulerStandIn> {
  const schedules = new Map<string, StoredSchedule>();
  const groups = new Set<string>(["default"]);
  const sqs = new SQSClient({
    endpoint: options.sqsEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const key = (group: string, name: string) => `${group}/${name}`;

  function upsert(name: string, body: Record<string, unknown>, mode: "create" | "update"): StoredSchedule {
    const group = (body.GroupName as string | undefined) ?? "default";
    if (!groups.has(group))
      throw new ApiError(404, "ResourceNotFoundException", `Schedule group ${group} does not exist.`);
    const existing = schedules.get(key(group, name));
    if (mode === "create" && existing)
      throw new ApiError(409, "ConflictException", `Schedule ${name} already exists.`);
    if (mode === "update" && !existing)
      throw new ApiError(404, "ResourceNotFoundException", `Schedule ${name} does not exist.`);
    const target = body.Target as StoredSchedule["Target"] | undefined;
    const window = body.FlexibleTimeWindow as StoredSchedule["FlexibleTimeWindow"] | undefined;
    if (!target?.Arn || !target.RoleArn)
      throw new ApiError(400, "ValidationException", "Target.Arn and Target.RoleArn are required");
    if (!window?.Mode) throw new ApiError(400, "ValidationException", "FlexibleTimeWindow is required");
    const expression = String(body.ScheduleExpression ?? "");
    const timeZone = body.ScheduleExpressionTimezone as string | undefined;
    const now = nowMs();
    const schedule: StoredSchedule = {
      Name: name,
      GroupName: group,
      Arn: `arn:aws:scheduler:${LOCAL_REGION}:${ACCOUNT}:schedule/${group}/${name}`,
      ScheduleExpression: expression,
      ...(timeZone ? { ScheduleExpressionTimezone: timeZone } : {}),
      FlexibleTimeWindow: window,
      Target: target,
      ...(body.ActionAfterCompletion ? { ActionAfterCompletion: String(body.ActionAfterCompletion) } : {}),
      State: (body.State as string | undefined) ?? "ENABLED",
      CreationDate: existing?.CreationDate ?? now / 1000,
      LastModificationDate: now / 1000,
      dueAt: parseAtExpression(expression, timeZone),
      attempts: 0,
    };
    schedules.set(key(group, name), schedule);
    return schedule;
  }

  function publicView(schedule: StoredSchedule) {
    const { dueAt: _dueAt, attempts: _attempts, ...view } = schedule;
    return view;
  }

  async function route(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(request.url ?? "/", "http://localhost");
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const method = request.method ?? "GET";
    if (parts[0] === "schedule-groups" && parts[1]) {
      if (method === "POST") {
        if (groups.has(parts[1]))
          throw new ApiError(409, "ConflictException", `Schedule group ${parts[1]} already exists.`);
        groups.add(parts[1]);
        return {
          status: 200,
          body: {
            ScheduleGroupArn: `arn:aws:scheduler:${LOCAL_REGION}:${ACCOUNT}:schedule-group/${parts[1]}`,
          },
        };
      }
      if (method === "GET") {
        if (!groups.has(parts[1])) throw new ApiError(404, "ResourceNotFoundException", "No such group");
        return { status: 200, body: { Name: parts[1], State: "ACTIVE" } };
      }
    }
    if (parts[0] === "schedules" && parts.length === 1 && method === "GET") {
      const group = url.searchParams.get("ScheduleGroup");
      const prefix = url.searchParams.get("NamePrefix") ?? "";
      const items = [...schedules.values()]
        .filter((schedule) => (!group || schedule.GroupName === group) && schedule.Name.startsWith(prefix))
        .map((schedule) => ({
          Name: schedule.Name,
          GroupName: schedule.GroupName,
          Arn: schedule.Arn,
          State: schedule.State,
          Target: { Arn: schedule.Target.Arn },
        }));
      return { status: 200, body: { Schedules: items } };
    }
    if (parts[0] === "schedules" && parts[1]) {
      const name = parts[1];
      if (method === "POST")
        return { status: 200, body: { ScheduleArn: upsert(name, await readJson(request), "create").Arn } };
      if (method === "PUT")
        return { status: 200, body: { ScheduleArn: upsert(name, await readJson(request), "update").Arn } };
      const group = url.searchParams.get("groupName") ?? "default";
      const schedule = schedules.get(key(group, name));
      if (!schedule) throw new ApiError(404, "ResourceNotFoundException", `Schedule ${name} does not exist.`);
      if (method === "GET") return { status: 200, body: publicView(schedule) };
      if (method === "DELETE") {
        schedules.delete(key(group, name));
        return { status: 200, body: {} };
      }
    }
    throw new ApiError(404, "UnknownOperationException", `${method} ${url.pathname} is not emulated`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const { status, body } = await route(request);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    } catch (error) {
      const apiError =
        error instanceof ApiError ? error : new ApiError(500, "InternalServerException", String(error));
      response.writeHead(apiError.status, {
        "content-type": "application/json",
        "x-amzn-errortype": apiError.errorType,
      });
      response.end(JSON.stringify({ Message: apiError.message, message: apiError.message }));
    }
  }

  async function sendToDeadLetter(schedule: StoredSchedule, reason: string): Promise<void> {
    const arn = schedule.Target.DeadLetterConfig?.Arn;
    if (!arn) return;
    const queueName = arn.split(":").pop() ?? "";
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }));
    await sqs.send(
      new SendMessageCommand({
        QueueUrl,
        MessageBody: schedule.Target.Input ?? "{}",
        MessageAttributes: {
          ERROR_CODE: { DataType: "String", StringValue: "LocalInvocationFailed" },
          ERROR_MESSAGE: { DataType: "String", StringValue: reason.slice(0, 256) },
          SCHEDULE_ARN: { DataType: "String", StringValue: schedule.Arn },
        },
      }),
    );
  }

  /** Lambda targets run the local handler; SQS targets get Input as the message body (templated targets). */
  async function invokeTarget(schedule: StoredSchedule): Promise<void> {
    const arn = schedule.Target.Arn;
    const queueName = sqsQueueName(arn);
    if (queueName !== null) {
      const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }));
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: schedule.Target.Input ?? "{}" }));
      return;
    }
    const load = options.resolveTarget(arn);
    if (!load) throw new Error(`no local function for ${arn}`);
    const handler = await load();
    const input = schedule.Target.Input ? (JSON.parse(schedule.Target.Input) as unknown) : {};
    await handler(input, lambdaContext(arn.split(":").pop() ?? "scheduled"));
  }

  let ticking: Promise<number> | null = null;
  async function fireDue(): Promise<number> {
    const now = nowMs();
    const due = [...schedules.values()].filter(
      (schedule) => schedule.State !== "DISABLED" && schedule.dueAt <= now,
    );
    due.sort((a, b) => a.dueAt - b.dueAt);
    let fired = 0;
    for (const schedule of due) {
      const current = schedules.get(key(schedule.GroupName, schedule.Name));
      if (current !== schedule) continue; // updated or deleted meanwhile
      try {
        await invokeTarget(schedule);
      } catch (error) {
        schedule.attempts += 1;
        const maxAttempts = 1 + Math.min(schedule.Target.RetryPolicy?.MaximumRetryAttempts ?? 185, 2);
        options.onError?.(error);
        if (schedule.attempts < maxAttempts) {
          schedule.dueAt = now + 1000; // locally retried after a second, not minutes
          continue;
        }
        await sendToDeadLetter(schedule, error instanceof Error ? error.message : String(error)).catch(
          options.onError,
        );
      }
      fired += 1;
      if (schedule.ActionAfterCompletion === "DELETE")
        schedules.delete(key(schedule.GroupName, schedule.Name));
      else schedule.State = "DISABLED";
    }
    return fired;
  }

  function tick(): Promise<number> {
    // One tick at a time, so a schedule never fires twice concurrently.
    ticking ??= fireDue().finally(() => {
      ticking = null;
    });
    return ticking;
  }

  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const timer = setInterval(() => {
    void tick().catch(options.onError);
  }, options.tickMs ?? 250);

  return {
    endpoint: `http://127.0.0.1:${port}`,
    tick,
    schedules: () => [...schedules.values()],
    async stop() {
      clearInterval(timer);
      await ticking;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      sqs.destroy();
    },
  };
}
