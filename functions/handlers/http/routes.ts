/**
 * The one route table. The CDK API construct wires each entry to its own Lambda and the local runner
 * serves the same entries, so the two cannot drift. Each route is also served under an extra leading
 * segment naming the service (`/<SERVICE_NAME>/...`, DESIGN.md section 1).
 */
import type { GenericSchema } from "valibot";
import type { Role } from "../../core/identity.ts";
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
];

/** Every path a route answers on: its own and the service-prefixed one. */
export function routePaths(route: RouteDefinition, serviceName = DEFAULT_SERVICE_NAME): string[] {
  return route.path === "/openapi.json" ? [route.path] : [route.path, `/${serviceName}${route.path}`];
}
