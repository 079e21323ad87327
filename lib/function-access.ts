/**
 * What each Lambda may touch, read from the adapters its handler is wired with (functions/wiring.ts,
 * functions/adapters/**). lib/function-bindings.ts turns each entry into IAM grants and the matching
 * environment, so a function neither holds nor learns of anything else.
 * Plain data (no CDK import). A handler without an entry fails synthesis.
 */
import type { QUEUES, TABLES } from "../functions/contracts/resources.ts";

export type TableName = keyof typeof TABLES;
export type QueueName = keyof typeof QUEUES;

/** EventBridge Scheduler calls on schedules of the check group (Delete and Get are never called). */
export type ScheduleAction = "CreateSchedule" | "UpdateSchedule";

export interface FunctionAccess {
  /** "read": Get/Query/BatchGet; "readWrite": also Put/Update/Delete/TransactWrite. */
  tables?: Partial<Record<TableName, "read" | "readWrite">>;
  /** Queues it sends messages to. */
  sendTo?: readonly QueueName[];
  /**
   * Scheduler actions it calls; any implies iam:PassRole of the Scheduler role (to Scheduler only)
   * and the schedule settings in its environment (group, role, dead-letter queue).
   */
  schedules?: readonly ScheduleAction[];
  /** Sends notification e-mail through SES (identity and configuration set). */
  sendsEmail?: boolean;
}

const readsSubscriptions: FunctionAccess = { tables: { subscriptions: "read" } };
const writesSubscriptions: FunctionAccess = { tables: { subscriptions: "readWrite" } };
// Rules created, updated or enabled queue a ProActive sweep on DueChecks; run-due-check runs it.
const writesRuleAndQueuesSweep: FunctionAccess = {
  tables: { subscriptions: "readWrite" },
  sendTo: ["dueChecks"],
};
const readsDeliveries: FunctionAccess = { tables: { subscriptions: "read", deliveries: "read" } };
// Replay puts the stored job back on the delivery queue; the attempt log is written by `deliver-job`.
const replaysDelivery: FunctionAccess = {
  tables: { subscriptions: "read", deliveries: "read" },
  sendTo: ["deliveryJobs"],
};

/** Handler id (route handler, event function, "authorizer") -> what it needs. */
export const FUNCTION_ACCESS: Readonly<Record<string, FunctionAccess>> = {
  // Verifies JWTs against the issuer's JWKS over HTTPS; no AWS resource.
  authorizer: {},
  "get-openapi": {},
  // Route-map transaction; carrier settings (participation, offsets) live in the subscriptions table.
  "ingest-carrier-message": { tables: { routeMaps: "readWrite", subscriptions: "read" } },
  // Trigger items on the route map; an FSR status request for the carrier gateway.
  "trigger-route-map": {
    tables: { routeMaps: "readWrite", subscriptions: "read" },
    sendTo: ["carrierRequests"],
  },
  // A POST that only reads (byReader index, current items).
  "search-route-maps": { tables: { routeMaps: "read" } },
  "get-route-map-history": { tables: { routeMaps: "read" } },
  "get-route-map": { tables: { routeMaps: "read" } },
  "put-carrier": writesSubscriptions,
  "get-carrier": readsSubscriptions,
  "create-notification-rule": writesRuleAndQueuesSweep,
  "list-notification-rules": readsSubscriptions,
  "get-notification-rule": readsSubscriptions,
  "update-notification-rule": writesRuleAndQueuesSweep,
  "delete-notification-rule": writesSubscriptions,
  "enable-notification-rule": writesRuleAndQueuesSweep,
  "disable-notification-rule": writesSubscriptions,
  "list-rule-deliveries": readsDeliveries,
  "replay-rule-delivery": replaysDelivery,
  // Webhook verification POSTs to the receiver over HTTPS and stores the outcome.
  "create-webhook": writesSubscriptions,
  "list-webhooks": readsSubscriptions,
  "get-webhook": readsSubscriptions,
  "update-webhook": writesSubscriptions,
  "delete-webhook": writesSubscriptions,
  "verify-webhook": writesSubscriptions,
  "list-webhook-deliveries": readsDeliveries,
  "replay-webhook-delivery": replaysDelivery,
  "register-customer-endpoint": writesSubscriptions,
  "list-customer-endpoints": readsSubscriptions,

  // Outbox event -> delivery records + one job per matching rule/webhook.
  "match-event": {
    tables: { subscriptions: "read", deliveries: "readWrite" },
    sendTo: ["deliveryJobs"],
  },
  // Sends (SES, HTTP); a receiver's 410 disables its webhook; short retries re-queue the job, long
  // ones are one-time schedules (CreateSchedule only: a name conflict means it already exists).
  "deliver-job": {
    tables: { subscriptions: "readWrite", deliveries: "readWrite", idempotency: "readWrite" },
    sendTo: ["deliveryJobs"],
    schedules: ["CreateSchedule"],
    sendsEmail: true,
  },
  // Plans -> one schedule per due check (create, else update); checks already due go on the queue.
  "plan-due-checks": {
    tables: { routeMaps: "read" },
    sendTo: ["dueChecks"],
    schedules: ["CreateSchedule", "UpdateSchedule"],
  },
  // Missing/ProActive facts on the route map; proactive checks and sweep continuations re-queued.
  "run-due-check": {
    tables: { routeMaps: "readWrite", subscriptions: "read" },
    sendTo: ["dueChecks"],
    schedules: ["CreateSchedule", "UpdateSchedule"],
  },
};

/** The entry of a handler; throws for a handler nobody described (fail closed). */
export function functionAccess(handler: string): FunctionAccess {
  const access = FUNCTION_ACCESS[handler];
  if (!access) throw new Error(`lib/function-access.ts has no entry for handler "${handler}"`);
  return access;
}
