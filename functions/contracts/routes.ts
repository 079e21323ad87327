/**
 * The one route table, as plain data: the CDK API construct wires each entry to its own Lambda, the
 * local runner serves the same entries and the HTTP pipeline (functions/http) checks roles and content
 * types against them, so none of them can drift. Each route is also served under an extra leading
 * segment naming the service (`/<SERVICE_NAME>/...`, DESIGN.md section 1). No valibot, no core import:
 * the schemas and descriptions of each route are in functions/http/routes/ (ROUTE_API, by handler id).
 */
import { CARRIER_CONTENT_TYPES } from "./carrier-formats.ts";
import { DEFAULT_SERVICE_NAME } from "./settings.ts";

export { DEFAULT_SERVICE_NAME };

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "DELETE";

/**
 * Timeout of every HTTP route's Lambda (the stack's, and the deadline the local runner gives each
 * invocation): handlers that may run long (carrier messages) answer before it with what they stored.
 */
export const HTTP_FUNCTION_TIMEOUT_SECONDS = 10;

/** The roles a bearer token can carry (functions/core/identity.ts `Role`). */
export type RouteRole = "forwarder" | "carrier" | "support";

interface RouteShape {
  /** Handler id: `functions/handlers/http/<handler>.ts` exports `handler`; also the construct id. */
  handler: string;
  method: HttpMethod;
  /** Path template with `{param}` segments, without the service prefix. */
  path: string;
  /** Roles allowed; "public" routes skip authentication (the API description, e-mail confirmation links). */
  roles: readonly RouteRole[] | "public";
  /** Accepted request content types, when the route takes a body. */
  body?: { contentTypes: readonly string[] };
  /**
   * "paging": the route reads ?CurrentPage=&PageSize=; "cursor": ?Limit=&Cursor= (an opaque cursor of
   * the next page); "force": it reads ?force=true|false; "month": ?month=YYYY-MM and the paging query;
   * "onerecord": the ONE Record API's own query (embedded, at, the event filters).
   * "lane": ?lane=<prefix> <origin>-<destination> (optional).
   */
  query?: "paging" | "cursor" | "force" | "month" | "onerecord" | "lane";
}

const JSON_BODY = { contentTypes: ["application/json"] } as const;
const forwarder = ["forwarder"] as const;
const support = ["support"] as const;
const forwarderOrSupport = ["forwarder", "support"] as const;
const FFW = "/ffw/service/routemap";
const RULES = `${FFW}/eventconfignotifier`;
const WEBHOOKS = `${FFW}/webhook`;
const FORWARDERS = "/support/forwarders";
const CARRIERS = "/support/carriers";
const ONE_RECORD = "/onerecord";
const oneRecord = ["forwarder", "carrier"] as const;
const JSON_LD_BODY = { contentTypes: ["application/ld+json"] } as const;

const TABLE = [
  { handler: "get-openapi", method: "GET", path: "/openapi.json", roles: "public" },
  // The link of a NotifyTo confirmation e-mail (its random token is the only credential): GET shows
  // a page with a button (read-only, so link scanners confirm nothing), whose POST confirms.
  {
    handler: "show-email-confirmation",
    method: "GET",
    path: "/email-confirmations/{token}",
    roles: "public",
  },
  {
    handler: "confirm-email-address",
    method: "POST",
    path: "/email-confirmations/{token}",
    roles: "public",
  },
  {
    handler: "ingest-carrier-message",
    method: "POST",
    path: "/carrier/messages",
    roles: ["carrier"],
    // Carrier messages: the content types of every carrier format, listed once in carrier-formats.ts.
    body: { contentTypes: CARRIER_CONTENT_TYPES },
  },
  // A carrier's ONE Record server announces LogisticsEvents; the service fetches them.
  {
    handler: "receive-onerecord-notification",
    method: "POST",
    path: "/onerecord/notifications",
    roles: ["carrier"],
    body: { contentTypes: ["application/ld+json"] },
  },
  // ---- the ONE Record server (API 2.x, data model 3.x, JSON-LD): what the service knows of an AWB as
  // logistics objects and events, for forwarders' and carriers' ONE Record clients.
  { handler: "one-record-server-information", method: "GET", path: ONE_RECORD, roles: oneRecord },
  {
    handler: "one-record-get-object",
    method: "GET",
    path: `${ONE_RECORD}/logistics-objects/{id}`,
    roles: oneRecord,
    query: "onerecord",
  },
  {
    handler: "one-record-head-object",
    method: "HEAD",
    path: `${ONE_RECORD}/logistics-objects/{id}`,
    roles: oneRecord,
    query: "onerecord",
  },
  {
    handler: "one-record-list-events",
    method: "GET",
    path: `${ONE_RECORD}/logistics-objects/{id}/logistics-events`,
    roles: oneRecord,
    query: "onerecord",
  },
  {
    handler: "one-record-post-event",
    method: "POST",
    path: `${ONE_RECORD}/logistics-objects/{id}/logistics-events`,
    roles: ["carrier"],
    body: JSON_LD_BODY,
  },
  {
    handler: "one-record-get-event",
    method: "GET",
    path: `${ONE_RECORD}/logistics-objects/{id}/logistics-events/{eventId}`,
    roles: oneRecord,
  },
  // ---- ONE Record subscriptions to our objects (a forwarder's client), and a carrier's server asking
  // which subscription we want; the SubscriptionRequest, its deliveries and their replay.
  {
    handler: "one-record-subscription-create",
    method: "POST",
    path: `${ONE_RECORD}/subscriptions`,
    roles: forwarder,
    body: JSON_LD_BODY,
  },
  {
    handler: "one-record-subscription-proposal",
    method: "GET",
    path: `${ONE_RECORD}/subscriptions`,
    roles: oneRecord,
    query: "onerecord",
  },
  {
    handler: "one-record-action-request-get",
    method: "GET",
    path: `${ONE_RECORD}/action-requests/{id}`,
    roles: forwarder,
  },
  {
    handler: "one-record-action-request-delete",
    method: "DELETE",
    path: `${ONE_RECORD}/action-requests/{id}`,
    roles: forwarder,
  },
  {
    handler: "one-record-action-request-deliveries",
    method: "GET",
    path: `${ONE_RECORD}/action-requests/{id}/deliveries`,
    roles: forwarder,
    query: "paging",
  },
  {
    handler: "one-record-action-request-replay",
    method: "POST",
    path: `${ONE_RECORD}/action-requests/{id}/deliveries/{deliveryId}/replay`,
    roles: forwarder,
  },
  // Literal paths before `/{awb}` (DESIGN.md section 9 Paging); the local API sorts by specificity too.
  // The caller's XTD usage ledger of a month.
  { handler: "get-xtd-usage", method: "GET", path: `${FFW}/usage`, roles: forwarder, query: "month" },
  { handler: "trigger-route-map", method: "POST", path: `${FFW}/sendsme`, roles: forwarder, body: JSON_BODY },
  {
    handler: "search-route-maps",
    method: "POST",
    path: FFW,
    roles: forwarder,
    body: JSON_BODY,
    query: "paging",
  },
  {
    handler: "get-route-map-history",
    method: "GET",
    path: `${FFW}/{awb}/history`,
    roles: forwarder,
    query: "paging",
  },
  // Predictions: how accurate they were (a forwarder's own shipments; support: all), and one AWB's.
  {
    handler: "get-eta-accuracy",
    method: "GET",
    path: `${FFW}/eta/accuracy`,
    roles: forwarderOrSupport,
    query: "lane",
  },
  { handler: "get-route-map-eta", method: "GET", path: `${FFW}/{awb}/eta`, roles: forwarderOrSupport },
  { handler: "get-route-map", method: "GET", path: `${FFW}/{awb}`, roles: forwarder },
  // Share links: a forwarder's sign-in-free, read-only link to one AWB's route map; the
  // link's random token is the only credential of the public route.
  {
    handler: "create-route-map-share",
    method: "POST",
    path: `${FFW}/{awb}/share`,
    roles: forwarder,
    body: JSON_BODY,
  },
  { handler: "list-route-map-shares", method: "GET", path: `${FFW}/{awb}/share`, roles: forwarder },
  { handler: "delete-route-map-share", method: "DELETE", path: `${FFW}/{awb}/share/{id}`, roles: forwarder },
  { handler: "get-shared-route-map", method: "GET", path: "/shared/routemap/{token}", roles: "public" },
  // Who shared that route map and until when, for the shared page (the map itself names no party).
  { handler: "get-shared-link", method: "GET", path: "/shared/routemap/{token}/link", roles: "public" },
  {
    handler: "put-carrier",
    method: "PUT",
    path: "/support/carriers/{prefix}",
    roles: support,
    body: JSON_BODY,
  },
  { handler: "get-carrier", method: "GET", path: "/support/carriers/{prefix}", roles: support },
  // Minimum connection times of transfer stations (a documented default where none is set).
  {
    handler: "put-station",
    method: "PUT",
    path: "/support/stations/{code}",
    roles: support,
    body: JSON_BODY,
  },
  // ---- support: tenants (forwarders, carriers) and their machine clients (OAuth 2.0 client credentials)
  { handler: "create-forwarder", method: "POST", path: FORWARDERS, roles: support, body: JSON_BODY },
  { handler: "list-forwarders", method: "GET", path: FORWARDERS, roles: support, query: "cursor" },
  { handler: "get-forwarder", method: "GET", path: `${FORWARDERS}/{id}`, roles: support },
  { handler: "delete-forwarder", method: "DELETE", path: `${FORWARDERS}/{id}`, roles: support },
  { handler: "disable-forwarder", method: "POST", path: `${FORWARDERS}/{id}/disable`, roles: support },
  { handler: "enable-forwarder", method: "POST", path: `${FORWARDERS}/{id}/enable`, roles: support },
  {
    handler: "create-forwarder-client",
    method: "POST",
    path: `${FORWARDERS}/{id}/clients`,
    roles: support,
    body: JSON_BODY,
  },
  { handler: "list-forwarder-clients", method: "GET", path: `${FORWARDERS}/{id}/clients`, roles: support },
  // People who sign in to the web app for the forwarder (Cognito users in AWS).
  {
    handler: "create-forwarder-user",
    method: "POST",
    path: `${FORWARDERS}/{id}/users`,
    roles: support,
    body: JSON_BODY,
  },
  { handler: "list-forwarder-users", method: "GET", path: `${FORWARDERS}/{id}/users`, roles: support },
  {
    handler: "delete-forwarder-user",
    method: "DELETE",
    path: `${FORWARDERS}/{id}/users/{userId}`,
    roles: support,
  },
  {
    handler: "delete-forwarder-client",
    method: "DELETE",
    path: `${FORWARDERS}/{id}/clients/{clientId}`,
    roles: support,
  },
  {
    handler: "disable-forwarder-client",
    method: "POST",
    path: `${FORWARDERS}/{id}/clients/{clientId}/disable`,
    roles: support,
  },
  {
    handler: "enable-forwarder-client",
    method: "POST",
    path: `${FORWARDERS}/{id}/clients/{clientId}/enable`,
    roles: support,
  },
  { handler: "list-carriers", method: "GET", path: CARRIERS, roles: support, query: "cursor" },
  { handler: "delete-carrier", method: "DELETE", path: `${CARRIERS}/{prefix}`, roles: support },
  { handler: "disable-carrier", method: "POST", path: `${CARRIERS}/{prefix}/disable`, roles: support },
  { handler: "enable-carrier", method: "POST", path: `${CARRIERS}/{prefix}/enable`, roles: support },
  {
    handler: "create-carrier-client",
    method: "POST",
    path: `${CARRIERS}/{prefix}/clients`,
    roles: support,
    body: JSON_BODY,
  },
  { handler: "list-carrier-clients", method: "GET", path: `${CARRIERS}/{prefix}/clients`, roles: support },
  // Status requests to carriers: a carrier's request log and its replay; every forwarder's
  // XTD usage of a month; the carrier's own pull queue.
  {
    handler: "list-carrier-status-requests",
    method: "GET",
    path: `${CARRIERS}/{prefix}/requests`,
    roles: support,
    query: "paging",
  },
  {
    handler: "replay-carrier-status-request",
    method: "POST",
    path: `${CARRIERS}/{prefix}/requests/{id}/replay`,
    roles: support,
  },
  { handler: "list-xtd-usage", method: "GET", path: "/support/usage", roles: support, query: "month" },
  {
    handler: "list-carrier-requests",
    method: "GET",
    path: "/carrier/requests",
    roles: ["carrier"],
    query: "paging",
  },
  { handler: "ack-carrier-request", method: "POST", path: "/carrier/requests/{id}/ack", roles: ["carrier"] },
  // Cargo-IMP by e-mail: a carrier's received mails, and mails from unregistered senders.
  {
    handler: "list-carrier-inbound-mail",
    method: "GET",
    path: `${CARRIERS}/{prefix}/inbound`,
    roles: support,
    query: "cursor",
  },
  // The raw message a receipt kept (GET by the ReceiptId a route map's history names), 30 days.
  {
    handler: "get-carrier-message",
    method: "GET",
    path: `${CARRIERS}/{prefix}/messages/{id}`,
    roles: support,
  },
  {
    handler: "list-unknown-sender-mail",
    method: "GET",
    path: "/support/inbound/unknown-senders",
    roles: support,
    query: "cursor",
  },
  {
    handler: "delete-carrier-client",
    method: "DELETE",
    path: `${CARRIERS}/{prefix}/clients/{clientId}`,
    roles: support,
  },
  {
    handler: "disable-carrier-client",
    method: "POST",
    path: `${CARRIERS}/{prefix}/clients/{clientId}/disable`,
    roles: support,
  },
  {
    handler: "enable-carrier-client",
    method: "POST",
    path: `${CARRIERS}/{prefix}/clients/{clientId}/enable`,
    roles: support,
  },
  // ---- notification rules: every forwarder route only ever reaches the caller's own rules, webhooks
  // and deliveries; another forwarder's answer 404 exactly like unknown ones.
  { handler: "create-notification-rule", method: "POST", path: RULES, roles: forwarder, body: JSON_BODY },
  { handler: "list-notification-rules", method: "GET", path: RULES, roles: forwarder, query: "paging" },
  { handler: "get-notification-rule", method: "GET", path: `${RULES}/{id}`, roles: forwarder },
  {
    handler: "update-notification-rule",
    method: "PUT",
    path: `${RULES}/{id}`,
    roles: forwarder,
    body: JSON_BODY,
  },
  { handler: "delete-notification-rule", method: "DELETE", path: `${RULES}/{id}`, roles: forwarder },
  { handler: "enable-notification-rule", method: "POST", path: `${RULES}/{id}/enable`, roles: forwarder },
  { handler: "disable-notification-rule", method: "POST", path: `${RULES}/{id}/disable`, roles: forwarder },
  {
    handler: "list-rule-deliveries",
    method: "GET",
    path: `${RULES}/{id}/deliveries`,
    roles: forwarder,
    query: "paging",
  },
  {
    handler: "replay-rule-delivery",
    method: "POST",
    path: `${RULES}/{id}/deliveries/{deliveryId}/replay`,
    roles: forwarder,
  },
  // ---- webhooks -----------------------------------------------------------------------------------
  { handler: "create-webhook", method: "POST", path: WEBHOOKS, roles: forwarder, body: JSON_BODY },
  { handler: "list-webhooks", method: "GET", path: WEBHOOKS, roles: forwarder, query: "paging" },
  { handler: "get-webhook", method: "GET", path: `${WEBHOOKS}/{id}`, roles: forwarder },
  { handler: "update-webhook", method: "PUT", path: `${WEBHOOKS}/{id}`, roles: forwarder, body: JSON_BODY },
  { handler: "delete-webhook", method: "DELETE", path: `${WEBHOOKS}/{id}`, roles: forwarder },
  { handler: "verify-webhook", method: "POST", path: `${WEBHOOKS}/{id}/verify`, roles: forwarder },
  {
    handler: "list-webhook-deliveries",
    method: "GET",
    path: `${WEBHOOKS}/{id}/deliveries`,
    roles: forwarder,
    query: "paging",
  },
  {
    handler: "replay-webhook-delivery",
    method: "POST",
    path: `${WEBHOOKS}/{id}/deliveries/{deliveryId}/replay`,
    roles: forwarder,
  },
  // ---- support: customer endpoints ----------------------------------------------------------------
  {
    handler: "register-customer-endpoint",
    method: "POST",
    path: "/support/customer-endpoints",
    roles: support,
    body: JSON_BODY,
  },
  {
    handler: "list-customer-endpoints",
    method: "GET",
    path: "/support/customer-endpoints",
    roles: support,
    query: "paging",
  },
  {
    handler: "update-customer-endpoint",
    method: "PUT",
    path: "/support/customer-endpoints/{id}",
    roles: support,
    body: JSON_BODY,
  },
  {
    handler: "delete-customer-endpoint",
    method: "DELETE",
    path: "/support/customer-endpoints/{id}",
    roles: support,
    query: "force",
  },
  // A forwarder's own endpoints (masked), to pick the GUID for a Url rule's NotifyTo.
  {
    handler: "list-own-customer-endpoints",
    method: "GET",
    path: `${FFW}/customer-endpoints`,
    roles: forwarder,
    query: "paging",
  },
] as const satisfies readonly RouteShape[];

type Table = (typeof TABLE)[number];

/** Id of a route's handler (and Lambda): `functions/handlers/http/<id>.ts`. */
export type HandlerId = Table["handler"];

/** The exact table entry of one handler, e.g. its roles as literal types. */
export type RouteOf<H extends HandlerId> = Extract<Table, { handler: H }>;

export interface RouteDefinition extends RouteShape {
  handler: HandlerId;
}

export const ROUTES: readonly RouteDefinition[] = TABLE;

/** The route of a handler id; throws for an id the table does not know (a mis-wired handler). */
export function routeOf<H extends HandlerId>(handler: H): RouteOf<H> {
  const route = TABLE.find((candidate) => candidate.handler === handler);
  if (!route) throw new Error(`no route for handler ${handler}`);
  return route as RouteOf<H>;
}

/** Every path a route answers on: its own and the service-prefixed one. */
export function routePaths(route: RouteDefinition, serviceName = DEFAULT_SERVICE_NAME): string[] {
  return route.path === "/openapi.json" ? [route.path] : [route.path, `/${serviceName}${route.path}`];
}
