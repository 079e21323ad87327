/**
 * The non-HTTP Lambdas and what triggers them, described once for the CDK stack and the local runner
 * (which feeds them from DynamoDB Local streams, fauxqs queues and the Scheduler stand-in).
 */
import { OUTBOX_ATTRIBUTES, OUTBOX_KIND } from "./outbox.ts";
import type { QUEUES, TABLES } from "./resources.ts";

/** An EventBridge-Pipes-style filter pattern: every listed value must match one of the allowed ones. */
export type FilterPattern = { [key: string]: FilterPattern | readonly string[] };

export type EventSource =
  | {
      kind: "stream";
      table: keyof typeof TABLES;
      batchSize: number;
      /** Lambda event-source filter applied to each stream record. */
      filter: FilterPattern;
    }
  | {
      kind: "queue";
      queue: keyof typeof QUEUES;
      batchSize: number;
      /**
       * Concurrent batches at most (Lambda's SQS maximum concurrency; the local poller runs as many
       * receive loops), so one batch waiting on a slow target never stops the next from starting.
       */
      maxConcurrency?: number;
      /**
       * A second queue feeding the same function with its own (small) concurrency: the slow lane,
       * where jobs of targets that timed out wait, so they cannot take the main lane's capacity.
       */
      slowLane?: { queue: keyof typeof QUEUES; batchSize: number; maxConcurrency: number };
    }
  | { kind: "schedule" };

export interface EventFunctionDefinition {
  /** Construct id and file name: `functions/handlers/<folder>/<handler>.ts`. */
  handler: string;
  folder: "stream" | "queue" | "schedule";
  source: EventSource;
  timeoutSeconds: number;
}

/** Outbox inserts only: route-map and snapshot writes never wake the matcher. */
export const OUTBOX_INSERT_FILTER: FilterPattern = {
  eventName: ["INSERT"],
  dynamodb: { NewImage: { [OUTBOX_ATTRIBUTES.kind]: { S: [OUTBOX_KIND] } } },
};

/** RMP outbox inserts only (a plan or replan): what re-plans the due checks. */
export const RMP_INSERT_FILTER: FilterPattern = {
  eventName: ["INSERT"],
  dynamodb: {
    NewImage: {
      [OUTBOX_ATTRIBUTES.kind]: { S: [OUTBOX_KIND] },
      [OUTBOX_ATTRIBUTES.event]: { M: { name: { S: ["RMP"] } } },
    },
  },
};

export const EVENT_FUNCTIONS: readonly EventFunctionDefinition[] = [
  // Outbox events -> one delivery record + SQS job per matching rule/webhook.
  {
    handler: "match-event",
    folder: "stream",
    source: { kind: "stream", table: "routeMaps", batchSize: 25, filter: OUTBOX_INSERT_FILTER },
    timeoutSeconds: 30,
  },
  // One delivery attempt per job; the queue's 90 s visibility timeout exceeds this 60 s timeout. The
  // records of a batch are sent concurrently, each within its 10 s deadline (capped by the time the
  // invocation has left); up to 20 batches run at once, and a target that timed out gets its retries
  // on the slow lane (DeliverySlowJobs, 2 batches at once), so it never delays anyone else's delivery.
  {
    handler: "deliver-job",
    folder: "queue",
    source: {
      kind: "queue",
      queue: "deliveryJobs",
      batchSize: 10,
      maxConcurrency: 20,
      slowLane: { queue: "deliverySlowJobs", batchSize: 10, maxConcurrency: 2 },
    },
    timeoutSeconds: 60,
  },
  // Plans and replans -> one-time EventBridge Scheduler schedules per due check.
  {
    handler: "plan-due-checks",
    folder: "stream",
    source: { kind: "stream", table: "routeMaps", batchSize: 25, filter: RMP_INSERT_FILTER },
    timeoutSeconds: 60,
  },
  // Fired checks (Scheduler -> DueChecks queue): Missing status, Missed/ProActive events; the queue's
  // 90 s visibility timeout exceeds this 60 s timeout.
  {
    handler: "run-due-check",
    folder: "queue",
    source: { kind: "queue", queue: "dueChecks", batchSize: 10 },
    timeoutSeconds: 60,
  },
  // SES bounces and complaints: suppress the address, note it in the delivery's log; the queue's 60 s
  // visibility timeout exceeds this 30 s timeout.
  {
    handler: "ses-feedback",
    folder: "queue",
    source: { kind: "queue", queue: "sesFeedback", batchSize: 10 },
    timeoutSeconds: 30,
  },
];

/** True when a record (a stream record as Lambda sees it) passes a filter pattern. */
export function matchesFilter(record: unknown, pattern: FilterPattern): boolean {
  if (typeof record !== "object" || record === null) return false;
  for (const [key, expected] of Object.entries(pattern)) {
    const actual = (record as Record<string, unknown>)[key];
    if (Array.isArray(expected)) {
      if (!expected.includes(actual as string)) return false;
    } else if (!matchesFilter(actual, expected as FilterPattern)) {
      return false;
    }
  }
  return true;
}
