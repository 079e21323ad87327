/**
 * Tables and queues described once, as plain data, so the CDK stack and the local runner build the same
 * thing (keys, indexes, TTL attributes, streams, redrive). No CDK import here: the local runner loads
 * this file without pulling aws-cdk-lib in.
 */

export interface TableDefinition {
  /** Logical id in the stack and local table name. */
  id: string;
  /** Environment variable through which handlers learn the physical table name. */
  envVar: string;
  partitionKey: string;
  sortKey?: string;
  ttlAttribute?: string;
  /** Stream of new images; consumers filter to the items they care about. */
  stream: boolean;
  globalIndexes: Array<{ name: string; partitionKey: string; sortKey: string }>;
}

export interface QueueDefinition {
  id: string;
  envVar: string;
  /** Seconds a received message stays invisible; must exceed the consumer's timeout. */
  visibilityTimeoutSeconds: number;
  /** Receives after which a message is parked on the dead-letter queue. */
  maxReceiveCount: number;
}

export const TABLES = {
  routeMaps: {
    id: "RouteMaps",
    envVar: "ROUTE_MAPS_TABLE",
    partitionKey: "pk",
    sortKey: "sk",
    // Snapshots expire 30 days after route-map creation; outbox items after 7 days.
    ttlAttribute: "expiresAt",
    stream: true,
    globalIndexes: [
      // Search: one reader item per (AWB, forwarder or agent that may read it), sorted by creation date.
      { name: "byReader", partitionKey: "readerKey", sortKey: "readerSort" },
    ],
  },
  // Rules, webhooks, carriers' settings (`CARRIER#<prefix>`) and stations' minimum connection times
  // (`STATION#<code>` / `SETTINGS`).
  subscriptions: {
    id: "Subscriptions",
    envVar: "SUBSCRIPTIONS_TABLE",
    partitionKey: "pk",
    sortKey: "sk",
    stream: false,
    globalIndexes: [],
  },
  // Besides deliveries and logs: the predictions' lane statistics (`LANE#<item>` / `STATS`, no TTL),
  // the predictions kept per horizon (`ETA#<awb>` / `H#<horizon>`) and scored route maps
  // (`ETASCORE#<day>` / `<owner>#<awb>`), both 30 days like history (functions/adapters/prediction-store.ts).
  deliveries: {
    id: "Deliveries",
    envVar: "DELIVERIES_TABLE",
    partitionKey: "pk",
    sortKey: "sk",
    ttlAttribute: "expiresAt",
    stream: false,
    globalIndexes: [],
  },
  idempotency: {
    id: "Idempotency",
    envVar: "IDEMPOTENCY_TABLE",
    partitionKey: "id",
    // Powertools idempotency's default expiry attribute.
    ttlAttribute: "expiration",
    stream: false,
    globalIndexes: [],
  },
  // Tenants (forwarders, carriers, support) and their machine clients: profile `TENANT#<kind>#<id>` /
  // `PROFILE`, client `CLIENT#<clientId>` / `CLIENT`, and the tenant's client list under its own
  // partition. Read by the token endpoint and Cognito's pre-token-generation trigger.
  tenants: {
    id: "Tenants",
    envVar: "TENANTS_TABLE",
    partitionKey: "pk",
    sortKey: "sk",
    stream: false,
    globalIndexes: [],
  },
  // Per-caller request counters of the minute/hour/day rate-limit windows, shared by every route's
  // containers (functions/adapters/rate-limit-counter.ts); each expires after its window.
  rateLimits: {
    id: "RateLimits",
    envVar: "RATE_LIMITS_TABLE",
    partitionKey: "pk",
    ttlAttribute: "expiresAt",
    stream: false,
    globalIndexes: [],
  },
} as const satisfies Record<string, TableDefinition>;

export const QUEUES = {
  deliveryJobs: {
    id: "DeliveryJobs",
    envVar: "DELIVERY_QUEUE_URL",
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 5,
  },
  // The delivery slow lane: retries of jobs whose target timed out (functions/contracts/event-functions.ts).
  deliverySlowJobs: {
    id: "DeliverySlowJobs",
    envVar: "DELIVERY_SLOW_QUEUE_URL",
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 5,
  },
  // EventBridge Scheduler's target for due checks (and long delivery retries): a queue, not the
  // Lambda itself, so checks are batched, retried and parked like any other job, and no function
  // needs its own ARN in its environment (a CloudFormation cycle).
  dueChecks: {
    id: "DueChecks",
    envVar: "DUE_CHECKS_QUEUE_URL",
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 5,
  },
  // SES bounces and complaints (configuration set -> SNS topic -> this queue), read by ses-feedback.
  sesFeedback: {
    id: "SesFeedback",
    envVar: "SES_FEEDBACK_QUEUE_URL",
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
  },
} as const satisfies Record<string, QueueDefinition>;

/** Environment variable holding a queue's ARN (what EventBridge Scheduler targets). */
export function queueArnEnvVar(queue: QueueDefinition): string {
  return queue.envVar.replace(/_URL$/, "_ARN");
}

/** Environment variable naming each queue's dead-letter queue (for alarms, replay and tests). */
export function deadLetterEnvVar(queue: QueueDefinition): string {
  return queue.envVar.replace(/_QUEUE_URL$/, "_DLQ_URL");
}
