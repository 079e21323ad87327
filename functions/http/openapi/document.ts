/**
 * Builds the OpenAPI 3.1 document from the route table (functions/contracts/routes.ts) and each
 * route's docs and valibot schemas (route-docs.ts; JSON Schema 2020-12, which OpenAPI 3.1 uses as
 * is). Generated, never hand-written, so it lists exactly the routes served.
 */
import { type JsonSchema, toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";
import { DEFAULT_SERVICE_NAME, ROUTES, routePaths } from "../../contracts/routes.ts";
import { MILESTONE_NAMES } from "../../core/carrier-messages/types.ts";
import { EVENT_PAYLOAD_FIELDS, type EventPayloadField } from "../../core/notifications/payload.ts";
import { plainObjectInner } from "../schemas/plain-object.ts";
import { ROUTE_DOCS } from "./route-docs.ts";

type JsonObject = Record<string, unknown>;

function schemaOf(schema: GenericSchema): JsonObject {
  // "ignore": transformations such as trim have no JSON Schema form; the validation parts still convert.
  const {
    $schema: _dialect,
    $defs,
    ...rest
  } = toJsonSchema(schema, {
    target: "draft-2020-12",
    errorMode: "ignore",
    // A plainObject (arrays refused, see plain-object.ts) is documented as the object it wraps.
    overrideSchema: ({ valibotSchema }) => {
      const inner = plainObjectInner(valibotSchema);
      return inner ? (schemaOf(inner) as JsonSchema) : undefined;
    },
  }) as JsonObject;
  // The lazy schema of each plainObject leaves a definition behind that the override made unused.
  return $defs !== undefined && JSON.stringify(rest).includes('"$ref"') ? { ...rest, $defs } : rest;
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

const STATION = { type: "string", pattern: "^[A-Z]{3}$" };
const LOCAL_STAMP = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$";
const UTC_STAMP = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$";
const nullable = (schema: JsonObject) => ({ ...schema, type: [schema.type, "null"] });

/**
 * The Event payload we POST to Url-channel endpoints and webhooks (spec "Event payload", DESIGN.md
 * section 5): exactly these fields, with the values receivers validate. Keyed by the renderer's own
 * field list, so a field added there and not here fails to compile.
 */
const EVENT_PAYLOAD_PROPERTIES: Record<EventPayloadField, JsonObject> = {
  IdMessage: { type: "string", description: "Event id, stable across retries: de-duplicate on it" },
  AirWaybillPrefix: { type: "string", pattern: "^\\d{3}$" },
  AirWaybillNumber: { type: "string", pattern: "^\\d{8}$" },
  ForwarderIdentifier: { type: "string", description: "The receiving forwarder" },
  AgentCode: { type: "string", pattern: "^\\d{7}$", description: "The receiving forwarder's" },
  AgentCass: { type: "string", pattern: "^\\d{4}$", description: "The receiving forwarder's" },
  AgentStation: { ...STATION, description: "The receiving forwarder's branch" },
  Type: {
    type: "string",
    enum: ["Event", "Missed", "ProActive"],
    description:
      "Event: a milestone was reported (or RMP/CAN); Missed: its planned time passed without a report; " +
      "ProActive: still unreported ProActiveTime minutes after its planned time",
  },
  Event: { type: "string", enum: [...MILESTONE_NAMES, "RMP", "CAN"] },
  EventStatus: { type: "string", enum: ["Creation", "Replan", "Update"] },
  AirportOfEvent: STATION,
  AirportOfOrigin: STATION,
  AirportOfDestination: STATION,
  CarrierCode: {
    ...nullable({ type: "string", pattern: "^[A-Z0-9]{2}$" }),
    description: "null when no flight is known (no booking yet)",
  },
  FlightNumber: {
    ...nullable({ type: "string", pattern: "^\\d{1,4}[A-Z]?$" }),
    description: "null when no flight is known (no booking yet)",
  },
  PiecesReported: { type: "integer", minimum: 0, description: "0 = not reported (Missed, ProActive)" },
  TotalShipmentPieces: { type: "integer", minimum: 0 },
  WeightReported: nullable({ type: "number", minimum: 0 }),
  WeightCode: {
    type: ["string", "null"],
    enum: ["K", "L", null],
    description: "null when no weight is reported",
  },
  MilestoneReportedLocalTimeStamp: nullable({ type: "string", pattern: LOCAL_STAMP }),
  MilestoneReportedUtcTimeStamp: nullable({ type: "string", pattern: UTC_STAMP }),
  isRM: { type: "boolean", description: "true when the shipment has a planned route map" },
  TavGap: { type: "null" },
  PlannedLocalTimeStamp: nullable({ type: "string", pattern: LOCAL_STAMP }),
  PlannedUtcTimeStamp: nullable({ type: "string", pattern: UTC_STAMP }),
};

export const EVENT_PAYLOAD_SCHEMA = {
  type: "object",
  description:
    "Sent to Url-channel rules (JSON) and webhooks (JSON, or the same fields as XML or text). Missed and " +
    "ProActive alerts report nothing: EventStatus Update, PiecesReported 0, WeightReported, WeightCode " +
    "and both MilestoneReported timestamps null, both Planned timestamps filled.",
  required: [...EVENT_PAYLOAD_FIELDS],
  additionalProperties: false,
  properties: EVENT_PAYLOAD_PROPERTIES,
  // JSON Schema 2020-12 (OpenAPI 3.1's dialect): what Missed/ProActive payloads always hold.
  if: { properties: { Type: { enum: ["Missed", "ProActive"] } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited.
  then: {
    properties: {
      EventStatus: { const: "Update" },
      PiecesReported: { const: 0 },
      WeightReported: { type: "null" },
      WeightCode: { type: "null" },
      MilestoneReportedLocalTimeStamp: { type: "null" },
      MilestoneReportedUtcTimeStamp: { type: "null" },
      PlannedLocalTimeStamp: { type: "string" },
      PlannedUtcTimeStamp: { type: "string" },
    },
  },
};

export function buildOpenApiDocument(serviceName = DEFAULT_SERVICE_NAME): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of ROUTES) {
    const docs = ROUTE_DOCS[route.handler];
    for (const [index, path] of routePaths(route, serviceName).entries()) {
      const parameters: JsonObject[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
      if (docs.query) {
        // One query parameter per property of the route's query schema.
        const query = schemaOf(docs.query) as {
          properties?: Record<string, JsonObject>;
          required?: string[];
        };
        for (const [name, schema] of Object.entries(query.properties ?? {})) {
          parameters.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema });
        }
      }
      const operation: JsonObject = {
        operationId: index === 0 ? route.handler : `${route.handler}-service-prefixed`,
        summary: docs.summary,
        tags: [docs.tag],
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(route.roles === "public" ? { security: [] } : { "x-roles": route.roles }),
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: docs.response ? schemaOf(docs.response) : {} } },
          },
          default: {
            description: "Error (problem+json)",
            content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
          },
        },
      };
      if (route.body) {
        const description = docs.body?.description;
        const jsonSchema = docs.body?.schema;
        operation.requestBody = {
          required: true,
          ...(description ? { description } : {}),
          content: Object.fromEntries(
            route.body.contentTypes.map((type) => [
              type,
              {
                schema: type === "application/json" && jsonSchema ? schemaOf(jsonSchema) : { type: "string" },
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
        "Outbound Event payloads (Url-channel rules, webhooks): see webhooks.eventPayload and " +
        "components.schemas.EventPayload.",
    },
    // What we POST to receivers (not an operation of this API): OpenAPI 3.1's place for it.
    webhooks: {
      eventPayload: {
        post: {
          summary: "Event payload: a reported milestone, RMP/CAN, or a Missed/ProActive alert",
          description:
            "POSTed to a Url-channel rule's customer endpoint (with its registered header) and to webhooks " +
            "(Authorization Bearer <Token> when set; Standard Webhooks signature headers when a Psk is set). " +
            "Retried on timeouts, 429 and 5xx.",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/EventPayload" } },
              "application/xml": {
                schema: {
                  type: "string",
                  description: "Webhooks of Type xml: root <Event>, one element per field",
                },
              },
              "text/plain": {
                schema: {
                  type: "string",
                  description: "Webhooks of Type text: one `Field: value` line per field",
                },
              },
            },
          },
          responses: {
            "200": { description: "Received" },
            "204": { description: "Received" },
          },
        },
      },
    },
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Problem: PROBLEM_SCHEMA, EventPayload: EVENT_PAYLOAD_SCHEMA },
    },
    paths,
  };
}
