/**
 * Builds the OpenAPI 3.1 document from the route table and its valibot schemas (JSON Schema 2020-12,
 * which OpenAPI 3.1 uses as is). Generated, never hand-written, so it lists exactly the routes served.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";
import { DEFAULT_SERVICE_NAME, ROUTES, routePaths } from "./routes.ts";

type JsonObject = Record<string, unknown>;

function schemaOf(schema: GenericSchema): JsonObject {
  // "ignore": transformations such as trim have no JSON Schema form; the validation parts still convert.
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    target: "draft-2020-12",
    errorMode: "ignore",
  }) as JsonObject;
  return rest;
}

const PROBLEM_SCHEMA = {
  type: "object",
  required: ["type", "title", "status", "detail", "errors"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    errors: {
      type: "array",
      items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } },
    },
  },
};

export function buildOpenApiDocument(serviceName = DEFAULT_SERVICE_NAME): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of ROUTES) {
    for (const [index, path] of routePaths(route, serviceName).entries()) {
      const parameters: JsonObject[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
      if (route.query) {
        // One query parameter per property of the route's query schema.
        const query = schemaOf(route.query) as {
          properties?: Record<string, JsonObject>;
          required?: string[];
        };
        for (const [name, schema] of Object.entries(query.properties ?? {})) {
          parameters.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema });
        }
      }
      const operation: JsonObject = {
        operationId: index === 0 ? route.handler : `${route.handler}-service-prefixed`,
        summary: route.summary,
        tags: [route.tag],
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(route.roles === "public" ? { security: [] } : { "x-roles": route.roles }),
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: route.response ? schemaOf(route.response) : {} } },
          },
          default: {
            description: "Error (problem+json)",
            content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
          },
        },
      };
      if (route.body) {
        operation.requestBody = {
          required: true,
          ...(route.body.description ? { description: route.body.description } : {}),
          content: Object.fromEntries(
            route.body.contentTypes.map((type) => [
              type,
              {
                schema:
                  type === "application/json" && route.body?.schema
                    ? schemaOf(route.body.schema)
                    : { type: "string" },
              },
            ]),
          ),
        };
      }
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation;
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
        "Outbound Event payloads (Url-channel rules, webhooks): Type is Event (a milestone was reported), " +
        "Missed (a milestone's planned time passed without a report) or ProActive (still unreported " +
        "ProActiveTime minutes after its planned time); EventStatus is Creation, Replan or Update. Missed " +
        "and ProActive payloads have EventStatus Update, PlannedUtcTimeStamp/PlannedLocalTimeStamp filled " +
        "and both MilestoneReported timestamps null.",
    },
    // The payload we POST (not an operation of this API): the values receivers validate.
    "x-event-payload": {
      Type: ["Event", "Missed", "ProActive"],
      EventStatus: ["Creation", "Replan", "Update"],
      MissedAndProActive: {
        EventStatus: "Update",
        PlannedUtcTimeStamp: "filled (UTC, +00:00)",
        PlannedLocalTimeStamp: "filled (station local, no offset)",
        MilestoneReportedUtcTimeStamp: null,
        MilestoneReportedLocalTimeStamp: null,
      },
    },
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Problem: PROBLEM_SCHEMA },
    },
    paths,
  };
}
