/**
 * What each Lambda may touch, read from the adapters its handler is wired with (functions/wiring.ts,
 * functions/adapters/**). lib/function-bindings.ts turns each entry into IAM grants and the matching
 * environment, so a function neither holds nor learns of anything else.
 * Plain data (no CDK import). A handler without an entry fails synthesis.
 */
import type { QUEUES, TABLES } from "../functions/contracts/resources.ts";
import { ROUTES } from "../functions/contracts/routes.ts";

export type TableName = keyof typeof TABLES;
export type QueueName = keyof typeof QUEUES;
export type TableAccess = "read" | "readWrite" | "count" | "get";

/** EventBridge Scheduler calls on schedules of the check group (Delete and Get are never called). */
export type ScheduleAction = "CreateSchedule" | "UpdateSchedule";

export interface FunctionAccess {
  /**
   * "read": Get/Query/BatchGet; "readWrite": also Put/Update/Delete/TransactWrite; "count": UpdateItem
   * only (the rate-limit counters); "get": GetItem only (Cognito's token trigger).
   */
  tables?: Partial<Record<TableName, TableAccess>>;
  /** Queues it sends messages to. */
  sendTo?: readonly QueueName[];
  /**
   * Scheduler actions it calls; any implies iam:PassRole of the Scheduler role (to Scheduler only)
   * and the schedule settings in its environment (group, role, dead-letter queue).
   */
  schedules?: readonly ScheduleAction[];
  /** Sends notification e-mail through SES (identity and configuration set). */
  sendsEmail?: boolean;
  /** Registers and removes tenants' machine clients (app clients) in the stack's Cognito user pool. */
  manageClients?: boolean;
  /** Creates and deletes the people signing in for forwarders (users) in the stack's Cognito user pool. */
  manageUsers?: boolean;
  /** Makes links a person opens in the web app (share links, e-mail links): gets APP_BASE_URL. */
  linksToApp?: boolean;
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

const readsTenants: FunctionAccess = { tables: { tenants: "read" } };
const writesTenants: FunctionAccess = { tables: { tenants: "readWrite" } };
const readsCarrierTenants: FunctionAccess = { tables: { tenants: "read", subscriptions: "read" } };
const writesCarrierTenants: FunctionAccess = { tables: { tenants: "readWrite", subscriptions: "read" } };

/** What each handler declares it needs; the routes also get the rate-limit table (below). */
const DECLARED_ACCESS: Readonly<Record<string, FunctionAccess>> = {
  // Verifies JWTs against the issuer's JWKS over HTTPS; no AWS resource.
  authorizer: {},
  // Cognito's pre-token-generation trigger: the client's (or user's) link and its tenant, by key.
  "pre-token-generation": { tables: { tenants: "get" } },
  "get-openapi": {},
  // Route-map transaction; carrier settings (participation, offsets) live in the subscriptions table.
  // The raw body of a receipt that changes a route map is kept for support (Deliveries table, 30 days),
  // and a refused body is recorded in the carrier's inbound log (same table) for support.
  "ingest-carrier-message": {
    tables: { routeMaps: "readWrite", subscriptions: "read", deliveries: "readWrite" },
  },
  // The same write as a posted message, after reading the carrier's ONE Record settings.
  "receive-onerecord-notification": {
    tables: { routeMaps: "readWrite", subscriptions: "read", deliveries: "readWrite" },
  },
  // The ONE Record server: reads answer from route maps and their snapshots; a carrier's posted event
  // is the same write as a posted message.
  "one-record-server-information": {},
  "one-record-get-object": { tables: { routeMaps: "read" } },
  "one-record-head-object": { tables: { routeMaps: "read" } },
  "one-record-list-events": { tables: { routeMaps: "read" } },
  "one-record-get-event": { tables: { routeMaps: "read" } },
  "one-record-post-event": {
    tables: { routeMaps: "readWrite", subscriptions: "read", deliveries: "readWrite" },
  },
  // ONE Record subscriptions (their own items in the subscriptions table): subscribing reads the AWB's
  // route map for access; deliveries and replay are the notification channel's attempt log and queue.
  "one-record-subscription-create": { tables: { subscriptions: "readWrite", routeMaps: "read" } },
  "one-record-subscription-proposal": {},
  "one-record-action-request-get": readsSubscriptions,
  "one-record-action-request-delete": writesSubscriptions,
  "one-record-action-request-deliveries": { tables: { subscriptions: "read", deliveries: "read" } },
  "one-record-action-request-replay": replaysDelivery,
  // Trigger items on the route map; an FSR status request for the carrier: its collapse window, its
  // delivery record and the XTD usage ledger (Deliveries table), its job on the delivery queue.
  "trigger-route-map": {
    tables: { routeMaps: "readWrite", subscriptions: "read", deliveries: "readWrite" },
    sendTo: ["deliveryJobs"],
  },
  // Predictions: lane statistics and scored predictions (Deliveries), stations' settings (Subscriptions).
  "get-route-map-eta": { tables: { routeMaps: "read", deliveries: "read", subscriptions: "read" } },
  "get-eta-accuracy": { tables: { deliveries: "read" } },
  "put-station": { tables: { subscriptions: "readWrite" } },
  "get-xtd-usage": { tables: { deliveries: "read" } },
  // Status requests: the carrier's request log and its replay, all forwarders' usage, the
  // carrier's pull queue (read, and the ack's delete).
  "list-carrier-status-requests": readsDeliveries,
  "replay-carrier-status-request": { tables: { deliveries: "read" }, sendTo: ["deliveryJobs"] },
  "list-xtd-usage": { tables: { deliveries: "read" } },
  "list-carrier-requests": { tables: { deliveries: "read" } },
  "ack-carrier-request": { tables: { deliveries: "readWrite" } },
  // A POST that only reads (byReader index, current items).
  "search-route-maps": { tables: { routeMaps: "read" } },
  "get-route-map-history": { tables: { routeMaps: "read" } },
  "get-route-map": { tables: { routeMaps: "read" } },
  // Share links live in the Deliveries table (TTL); creating and listing check read access first.
  "create-route-map-share": { tables: { routeMaps: "read", deliveries: "readWrite" }, linksToApp: true },
  "list-route-map-shares": { tables: { routeMaps: "read", deliveries: "read" } },
  "delete-route-map-share": { tables: { deliveries: "readWrite" } },
  // Public: the link (by its token hash), then the route map it names.
  "get-shared-route-map": { tables: { routeMaps: "read", deliveries: "read" } },
  // Public: the link, the route map's readers (the creator must still read it), the creator's name.
  "get-shared-link": { tables: { routeMaps: "read", deliveries: "read", tenants: "read" } },
  // The settings, and the carrier's tenant profile created with its first settings.
  "put-carrier": { tables: { subscriptions: "readWrite", tenants: "readWrite" } },
  "get-carrier": readsSubscriptions,
  // A new NotifyTo address of an Email rule is mailed its confirmation link (SES).
  "create-notification-rule": { ...writesRuleAndQueuesSweep, sendsEmail: true },
  "list-notification-rules": readsSubscriptions,
  "get-notification-rule": readsSubscriptions,
  "update-notification-rule": { ...writesRuleAndQueuesSweep, sendsEmail: true },
  "delete-notification-rule": writesSubscriptions,
  "enable-notification-rule": { ...writesRuleAndQueuesSweep, sendsEmail: true },
  "disable-notification-rule": writesSubscriptions,
  "list-rule-deliveries": readsDeliveries,
  "replay-rule-delivery": replaysDelivery,
  // Webhook verification POSTs to the receiver over HTTPS and stores the outcome.
  "create-webhook": writesSubscriptions,
  // Each webhook with its newest delivery (LastDelivery).
  "list-webhooks": readsDeliveries,
  "get-webhook": readsDeliveries,
  "update-webhook": writesSubscriptions,
  "delete-webhook": writesSubscriptions,
  "verify-webhook": writesSubscriptions,
  "list-webhook-deliveries": readsDeliveries,
  "replay-webhook-delivery": replaysDelivery,
  "register-customer-endpoint": writesSubscriptions,
  "list-customer-endpoints": readsSubscriptions,
  "update-customer-endpoint": writesSubscriptions,
  // Switches off (with ?force=true) the Url rules still sending to the endpoint, then deletes it.
  "delete-customer-endpoint": writesSubscriptions,
  "list-own-customer-endpoints": readsSubscriptions,
  // ---- tenants and their machine clients. Registering or removing a client is an app client in the
  // user pool (manageClients); a carrier tenant exists by its settings (subscriptions, read).
  "create-forwarder": writesTenants,
  "list-forwarders": readsTenants,
  "get-forwarder": readsTenants,
  // Its clients (app clients) and the people signing in for it (users) go with it.
  "delete-forwarder": { ...writesTenants, manageClients: true, manageUsers: true },
  "disable-forwarder": writesTenants,
  "enable-forwarder": writesTenants,
  "create-forwarder-client": { ...writesTenants, manageClients: true },
  "list-forwarder-clients": readsTenants,
  // People signing in for a forwarder: Cognito users (manageUsers) and their links in Tenants.
  "create-forwarder-user": { ...writesTenants, manageUsers: true },
  "list-forwarder-users": readsTenants,
  "delete-forwarder-user": { ...writesTenants, manageUsers: true },
  "delete-forwarder-client": { ...writesTenants, manageClients: true },
  "disable-forwarder-client": writesTenants,
  "enable-forwarder-client": writesTenants,
  "list-carriers": readsCarrierTenants,
  "delete-carrier": { ...writesCarrierTenants, manageClients: true },
  "disable-carrier": writesCarrierTenants,
  "enable-carrier": writesCarrierTenants,
  "create-carrier-client": { ...writesCarrierTenants, manageClients: true },
  "list-carrier-clients": readsCarrierTenants,
  // Cargo-IMP by e-mail: the carrier's settings (404) and the inbound logs (Deliveries table).
  "list-carrier-inbound-mail": { tables: { subscriptions: "read", deliveries: "read" } },
  "list-unknown-sender-mail": { tables: { deliveries: "read" } },
  "get-carrier-message": { tables: { deliveries: "read" } },
  "delete-carrier-client": { ...writesTenants, manageClients: true },
  "disable-carrier-client": writesTenants,
  "enable-carrier-client": writesTenants,
  // The public link of a confirmation e-mail: the page (read-only), its button (marks it confirmed).
  "show-email-confirmation": readsSubscriptions,
  // Confirming sends the alerts held for the address: its rules, their delivery logs (a held alert too
  // old to send gets a log entry saying so) and the delivery queue.
  "confirm-email-address": {
    tables: { subscriptions: "readWrite", deliveries: "readWrite" },
    sendTo: ["deliveryJobs"],
  },

  // A received carrier mail (SES receipt rule -> S3 + this function): the sender's lookup item and
  // carrier settings and tenant (enabled, by key), the route-map transaction of the ingest, its inbound
  // log entry, the error reply.
  // Its GetObject on the mail bucket's inbound/ prefix is granted by lib/constructs/inbound-mail.ts.
  "inbound-carrier-mail": {
    tables: { subscriptions: "read", routeMaps: "readWrite", deliveries: "readWrite", tenants: "get" },
    sendsEmail: true,
  },

  // Outbox event -> delivery records + one job per matching rule/webhook.
  "match-event": {
    tables: { subscriptions: "read", deliveries: "readWrite" },
    sendTo: ["deliveryJobs"],
  },
  // Sends (SES, HTTP; a status request also reads its carrier's settings in the subscriptions table and
  // may put it in the carrier's pull queue in the Deliveries table); a receiver's 410 disables its webhook; short retries re-queue the job (a
  // timed-out target's on the slow lane), long ones are one-time schedules (CreateSchedule only: a
  // name conflict means it already exists).
  "deliver-job": {
    // routeMaps read: an e-mail's timeline; deliveries also hold the share links an e-mail makes.
    tables: {
      subscriptions: "readWrite",
      deliveries: "readWrite",
      idempotency: "readWrite",
      routeMaps: "read",
    },
    sendTo: ["deliveryJobs", "deliverySlowJobs"],
    schedules: ["CreateSchedule"],
    sendsEmail: true,
    // E-mails link to the route-map page and to the rule in the web app.
    linksToApp: true,
  },
  // Plans -> one schedule per due check (create, else update); checks already due go on the queue.
  "plan-due-checks": {
    tables: { routeMaps: "read" },
    sendTo: ["dueChecks"],
    schedules: ["CreateSchedule", "UpdateSchedule"],
  },
  // SES bounces and complaints: the suppression item (Subscriptions), the sending delivery's log.
  "ses-feedback": { tables: { subscriptions: "readWrite", deliveries: "readWrite" } },
  // Missing/ProActive facts on the route map; proactive checks and sweep continuations re-queued.
  "run-due-check": {
    tables: { routeMaps: "readWrite", subscriptions: "read" },
    sendTo: ["dueChecks"],
    schedules: ["CreateSchedule", "UpdateSchedule"],
  },
};

/**
 * Every authenticated route counts its caller's requests in the RateLimits table (the pipeline's
 * rate-limit middleware, functions/adapters/rate-limit-counter.ts): granted here once, for every
 * route of the table, so no route can be added without it.
 */
const RATE_LIMITED_ROUTES = new Set<string>(
  ROUTES.filter((route) => route.roles !== "public").map((route) => route.handler),
);

/** Handler id (route handler, event function, "authorizer") -> what it needs. */
export const FUNCTION_ACCESS: Readonly<Record<string, FunctionAccess>> = Object.fromEntries(
  Object.entries(DECLARED_ACCESS).map(([handler, access]) => [
    handler,
    RATE_LIMITED_ROUTES.has(handler)
      ? { ...access, tables: { ...access.tables, rateLimits: "count" as const } }
      : access,
  ]),
);

/** The entry of a handler; throws for a handler nobody described (fail closed). */
export function functionAccess(handler: string): FunctionAccess {
  const access = FUNCTION_ACCESS[handler];
  if (!access) throw new Error(`lib/function-access.ts has no entry for handler "${handler}"`);
  return access;
}
