/**
 * The Event payload we POST to Url-channel endpoints and webhooks, as a JSON Schema: not an answer of
 * this API, so it is written here rather than derived from a valibot schema, and keyed by the
 * renderer's own field list.
 */
import { MILESTONE_NAMES } from "../../core/carrier-messages/types.ts";
import { EVENT_PAYLOAD_FIELDS, type EventPayloadField } from "../../core/notifications/payload.ts";
import type { JsonObject } from "./json-schema.ts";

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
  ForwarderIdentifier: { type: "string", pattern: "^[A-Z]{9}$", description: "The receiving forwarder" },
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

/** A DEP as a webhook of Type json receives it. */
const EVENT_PAYLOAD_EXAMPLE: Record<EventPayloadField, unknown> = {
  IdMessage: "02012345675-4-0",
  AirWaybillPrefix: "020",
  AirWaybillNumber: "12345675",
  ForwarderIdentifier: "ACMECARGO",
  AgentCode: "1234567",
  AgentCass: "0001",
  AgentStation: "FRA",
  Type: "Event",
  Event: "DEP",
  EventStatus: "Update",
  AirportOfEvent: "FRA",
  AirportOfOrigin: "FRA",
  AirportOfDestination: "JFK",
  CarrierCode: "LH",
  FlightNumber: "400",
  PiecesReported: 10,
  TotalShipmentPieces: 10,
  WeightReported: 250,
  WeightCode: "K",
  MilestoneReportedLocalTimeStamp: "2026-11-28T14:41:00",
  MilestoneReportedUtcTimeStamp: "2026-11-28T13:41:00+00:00",
  isRM: true,
  TavGap: null,
  PlannedLocalTimeStamp: "2026-11-28T14:25:00",
  PlannedUtcTimeStamp: "2026-11-28T13:25:00+00:00",
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
  examples: [EVENT_PAYLOAD_EXAMPLE],
};
