/**
 * The one route table. The CDK API construct wires each entry to its own Lambda and the local runner
 * serves the same entries, so the two cannot drift. Each route is also served under an extra leading
 * segment naming the service (`/<SERVICE_NAME>/...`, DESIGN.md section 1).
 */
import type { GenericSchema } from "valibot";
import {
  CarrierJsonMessageSchema,
  SUPPORTED_CARRIER_CONTENT_TYPES,
} from "../../core/carrier-messages/index.ts";
import type { Role } from "../../core/identity.ts";
import { NOTIFICATION_ROUTES } from "./notification-routes.ts";
import * as schemas from "./schemas.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteDefinition {
  /** Handler id: `functions/handlers/http/<handler>.ts` exports `handler`; also the construct id. */
  handler: string;
  method: HttpMethod;
  /** Path template with `{param}` segments, without the service prefix. */
  path: string;
  /** Roles allowed; "public" routes skip authentication (only the API description). */
  roles: readonly Role[] | "public";
  summary: string;
  tag: string;
  /** Accepted request content types with the JSON schema of a JSON body, when the route takes one. */
  body?: { contentTypes: readonly string[]; schema?: GenericSchema; description?: string };
  query?: GenericSchema;
  response?: GenericSchema;
}

export const DEFAULT_SERVICE_NAME = "api.routemap";
const FFW = "/ffw/service/routemap";

export const ROUTES: readonly RouteDefinition[] = [
  {
    handler: "get-openapi",
    method: "GET",
    path: "/openapi.json",
    roles: "public",
    summary: "This API's OpenAPI 3.1 description",
    tag: "meta",
  },
  {
    handler: "ingest-carrier-message",
    method: "POST",
    path: "/carrier/messages",
    roles: ["carrier"],
    summary:
      "Report carrier messages: Cargo-IMP text (FSU, FWB, FFR/FFA), Cargo-XML XFSU, or the JSON event form",
    tag: "carriers",
    body: {
      contentTypes: [...SUPPORTED_CARRIER_CONTENT_TYPES],
      // Documentation only: the handler passes the raw body to the parsers so errors name the line.
      schema: CarrierJsonMessageSchema,
      description:
        "text/plain: Cargo-IMP (several messages may share a body; Type-B envelope lines are skipped). " +
        "application/xml or text/xml: XFSU. application/json: the schema below. Every AWB must carry the " +
        "calling carrier's prefix. Errors are 400 problem+json naming the line, and nothing is stored. " +
        "Each message is stored in its own transaction: a body stored only in part (lost write races 409, " +
        "a change too large 422, a fault 500) answers with an `Applied` member listing what was stored, " +
        "shaped like the success body; resend from the message named in errors[0].field.",
    },
    response: schemas.IngestResultSchema,
  },
  // Literal paths before `/{awb}` (DESIGN.md section 9 Paging); the local API sorts by specificity too.
  {
    handler: "trigger-route-map",
    method: "POST",
    path: `${FFW}/sendsme`,
    roles: ["forwarder"],
    summary:
      "Trigger a route map (quality program: owner only; IsXTD true: XTD). 200 with the route map, or " +
      "{ AwbNumber, Status: Requested } when the caller cannot read one yet; header x-route-map-note for advice",
    tag: "route maps",
    body: { contentTypes: ["application/json"], schema: schemas.SendsmeRequestSchema },
    response: schemas.SendsmeResponseSchema,
  },
  {
    handler: "search-route-maps",
    method: "POST",
    path: FFW,
    roles: ["forwarder"],
    summary:
      "Search the route maps you may read (filters in the body, ?CurrentPage=&PageSize= default 100, max 500)",
    tag: "route maps",
    body: { contentTypes: ["application/json"], schema: schemas.RouteMapSearchSchema },
    query: schemas.PagingQuerySchema,
    response: schemas.RouteMapSearchResultSchema,
  },
  {
    handler: "get-route-map-history",
    method: "GET",
    path: `${FFW}/{awb}/history`,
    roles: ["forwarder"],
    summary: "The route map with its snapshots (one per change, newest first, kept 30 days from creation)",
    tag: "route maps",
    response: schemas.RouteMapHistorySchema,
  },
  {
    handler: "get-route-map",
    method: "GET",
    path: `${FFW}/{awb}`,
    roles: ["forwarder"],
    summary: "Retrieve the route map of one AWB (11 digits or ppp-nnnnnnnn)",
    tag: "route maps",
    response: schemas.RouteMapSchema,
  },
  {
    handler: "put-carrier",
    method: "PUT",
    path: "/support/carriers/{prefix}",
    roles: ["support"],
    summary: "Create or update a carrier's participation (quality program, XTD)",
    tag: "support",
    body: { contentTypes: ["application/json"], schema: schemas.CarrierSettingsSchema },
    response: schemas.CarrierSchema,
  },
  {
    handler: "get-carrier",
    method: "GET",
    path: "/support/carriers/{prefix}",
    roles: ["support"],
    summary: "Read a carrier's participation",
    tag: "support",
    response: schemas.CarrierSchema,
  },
  ...NOTIFICATION_ROUTES,
];

/** Every path a route answers on: its own and the service-prefixed one. */
export function routePaths(route: RouteDefinition, serviceName = DEFAULT_SERVICE_NAME): string[] {
  return route.path === "/openapi.json" ? [route.path] : [route.path, `/${serviceName}${route.path}`];
}
