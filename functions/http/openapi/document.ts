/**
 * Builds the OpenAPI 3.1 document from the route table (functions/contracts/routes.ts) and each route's
 * entry in ROUTE_API (functions/http/routes): the very schemas the handlers parse with, each named
 * body and answer a component with its example, and per operation the errors it may answer. Generated,
 * never hand-written, so it lists exactly the routes served.
 */
import { DEFAULT_SERVICE_NAME, ROUTES, type RouteDefinition, routePaths } from "../../contracts/routes.ts";
import { TENANT_SCOPES } from "../../contracts/scopes.ts";
import { type Component, ROUTE_API, type RouteApi } from "../routes/index.ts";
import {
  type ErrorStatus,
  errorResponseComponents,
  errorResponseRef,
  errorStatuses,
  PROBLEM_SCHEMA,
} from "./error-responses.ts";
import { EVENT_PAYLOAD_SCHEMA } from "./event-payload.ts";
import { componentRef, componentSchemas, inlineSchema, type JsonObject } from "./json-schema.ts";
import { EVENT_PAYLOAD_WEBHOOK, TAGS } from "./texts.ts";

export interface OpenApiSettings {
  /** Leading path segment under which every route is also served. */
  serviceName?: string;
  /**
   * The API's base URL as callers reach it (scheme, host, stage): the document's server. Default "/",
   * the origin the document is served from.
   */
  serverUrl?: string;
  /**
   * The OAuth 2.0 token endpoint of client credentials: in AWS the Cognito domain's. Default: the API's
   * own /oauth2/token, which the local runner serves.
   */
  tokenUrl?: string;
}

const isComponent = (response: RouteApi["response"]): response is Component =>
  response !== undefined && "schema" in response;

/** Every component a route names: its JSON body (or a raw body's JSON form) and its answer. */
function componentsOf(api: RouteApi): Component[] {
  const body = api.body?.raw ? api.body.json : api.body;
  return [...(body ? [body] : []), ...(isComponent(api.response) ? [api.response] : [])];
}

const SUCCESS = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" } as const;

function successResponse(api: RouteApi): JsonObject {
  const status = api.status ?? 200;
  const { response } = api;
  if (status === 204 || response === undefined) return { [status]: { description: SUCCESS[status] } };
  const content = isComponent(response)
    ? { "application/json": { schema: { $ref: componentRef(response.name) } } }
    : { "text/html": { schema: { type: "string", description: response.html } } };
  return { [status]: { description: SUCCESS[status], content } };
}

function requestBody(route: RouteDefinition, api: RouteApi): JsonObject | undefined {
  if (!route.body || !api.body) return undefined;
  const { body } = api;
  const json = body.raw ? body.json : body;
  const schemaFor = (type: string): JsonObject =>
    type === "application/json" && json
      ? { $ref: componentRef(json.name) }
      : type.endsWith("json")
        ? { type: ["object", "array"] }
        : { type: "string" };
  return {
    required: true,
    ...(body.description ? { description: body.description } : {}),
    content: Object.fromEntries(route.body.contentTypes.map((type) => [type, { schema: schemaFor(type) }])),
  };
}

function parameters(path: string, api: RouteApi): JsonObject[] {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (!api.query) return inPath;
  // One query parameter per property of the route's query schema.
  const query = inlineSchema(api.query) as { properties?: Record<string, JsonObject>; required?: string[] };
  const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: query.required?.includes(name) ?? false,
    schema,
  }));
  return [...inPath, ...inQuery];
}

function operation(route: RouteDefinition, api: RouteApi, path: string, operationId: string): JsonObject {
  const params = parameters(path, api);
  const body = requestBody(route, api);
  const errors = Object.fromEntries(
    errorStatuses(route, api).map((status) => [String(status), errorResponseRef(status)]),
  );
  return {
    operationId,
    summary: api.summary,
    tags: [api.tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.roles === "public"
      ? { security: [] }
      : {
          security: [{ oauth2: route.roles.map((role) => TENANT_SCOPES[role]) }, { bearerAuth: [] }],
          "x-roles": route.roles,
        }),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponse(api), ...errors, default: errorResponseRef(500) },
  };
}

export function buildOpenApiDocument(settings: OpenApiSettings = {}): JsonObject {
  const serviceName = settings.serviceName ?? DEFAULT_SERVICE_NAME;
  const serverUrl = settings.serverUrl ?? "/";
  const tokenUrl = settings.tokenUrl ?? `${serverUrl.replace(/\/$/, "")}/oauth2/token`;
  const paths: Record<string, Record<string, JsonObject>> = {};
  const statuses = new Set<ErrorStatus>([500]);
  for (const route of ROUTES) {
    const api = ROUTE_API[route.handler];
    for (const status of errorStatuses(route, api)) statuses.add(status);
    for (const [index, path] of routePaths(route, serviceName).entries()) {
      const operationId = index === 0 ? route.handler : `${route.handler}-service-prefixed`;
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation(route, api, path, operationId);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Route Map Tracker",
      version: "1.0.0",
      description:
        "Air-cargo route maps per AWB, notification rules and webhooks. Every route is also served under " +
        `/${serviceName}. Errors are application/problem+json. ` +
        "Outbound Event payloads (Url-channel rules, webhooks): see webhooks.eventPayload and " +
        "components.schemas.EventPayload.",
    },
    servers: [{ url: serverUrl, description: `This API; every route is also served under /${serviceName}` }],
    tags: TAGS,
    // What we POST to receivers (not an operation of this API): OpenAPI 3.1's place for it.
    webhooks: { eventPayload: EVENT_PAYLOAD_WEBHOOK },
    security: [{ oauth2: [] }, { bearerAuth: [] }],
    components: {
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          description:
            "OAuth 2.0 client credentials (HTTP Basic, form body) of a client support created for your " +
            "tenant; the access token is the bearer token.",
          flows: {
            clientCredentials: {
              tokenUrl,
              scopes: {
                [TENANT_SCOPES.forwarder]: "Call the forwarder routes",
                [TENANT_SCOPES.carrier]: "Call the carrier routes",
                [TENANT_SCOPES.support]: "Call the support routes",
              },
            },
          },
        },
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A JWT of the service's issuer carrying the caller's role and claims",
        },
      },
      schemas: {
        Problem: PROBLEM_SCHEMA,
        EventPayload: EVENT_PAYLOAD_SCHEMA,
        ...componentSchemas(ROUTES.flatMap((route) => componentsOf(ROUTE_API[route.handler]))),
      },
      responses: errorResponseComponents(statuses),
    },
    paths,
  };
}
