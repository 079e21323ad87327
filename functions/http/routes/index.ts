/**
 * ROUTE_API: every route's schemas and docs, keyed by handler id, joined from the areas' tables. The
 * route itself (method, path, roles, content types) is plain data in functions/contracts/routes.ts;
 * the `Record<HandlerId, RouteApi>` type makes a route without its entry fail to compile. Handlers
 * import their area's table (not this one) for the schemas they parse with; the OpenAPI document
 * (functions/http/openapi/document.ts) is built from this one.
 */
import type { HandlerId } from "../../contracts/routes.ts";
import { CARRIER_ROUTES } from "./carriers.ts";
import { CUSTOMER_ENDPOINT_ROUTES } from "./customer-endpoints.ts";
import { META_ROUTES } from "./meta.ts";
import { NOTIFICATION_ROUTES } from "./notifications.ts";
import { ONE_RECORD_ROUTES } from "./one-record.ts";
import { ONE_RECORD_SUBSCRIPTION_ROUTES } from "./one-record-subscriptions.ts";
import { PREDICTION_ROUTES } from "./predictions.ts";
import type { RouteApi, RouteApis } from "./route-api.ts";
import { ROUTE_MAP_ROUTES } from "./route-maps.ts";
import { SUPPORT_CARRIER_ROUTES } from "./support-carriers.ts";
import { SUPPORT_FORWARDER_ROUTES } from "./support-forwarders.ts";
import { WEBHOOK_ROUTES } from "./webhooks.ts";

/** The areas' tables, each route in exactly one of them (a unit test holds that). */
export const ROUTE_API_AREAS: readonly RouteApis[] = [
  META_ROUTES,
  CARRIER_ROUTES,
  ROUTE_MAP_ROUTES,
  PREDICTION_ROUTES,
  NOTIFICATION_ROUTES,
  WEBHOOK_ROUTES,
  CUSTOMER_ENDPOINT_ROUTES,
  SUPPORT_CARRIER_ROUTES,
  SUPPORT_FORWARDER_ROUTES,
  ONE_RECORD_ROUTES,
  ONE_RECORD_SUBSCRIPTION_ROUTES,
];

export const ROUTE_API: Readonly<Record<HandlerId, RouteApi>> = {
  ...META_ROUTES,
  ...CARRIER_ROUTES,
  ...ROUTE_MAP_ROUTES,
  ...PREDICTION_ROUTES,
  ...NOTIFICATION_ROUTES,
  ...WEBHOOK_ROUTES,
  ...CUSTOMER_ENDPOINT_ROUTES,
  ...SUPPORT_CARRIER_ROUTES,
  ...SUPPORT_FORWARDER_ROUTES,
  ...ONE_RECORD_ROUTES,
  ...ONE_RECORD_SUBSCRIPTION_ROUTES,
};

export type { Component, RouteApi } from "./route-api.ts";
