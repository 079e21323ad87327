/**
 * Routes of notification rules, webhooks, deliveries and customer endpoints (issue 4); spread into the
 * one route table in routes.ts.
 */
import type { RouteDefinition } from "./routes.ts";

export const NOTIFICATION_ROUTES: readonly RouteDefinition[] = [];
