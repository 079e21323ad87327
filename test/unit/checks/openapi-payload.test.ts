/**
 * The OpenAPI document describes the outbound Event payload as a schema (components.schemas.
 * EventPayload, referenced from the 3.1 `webhooks` entry), the schema accepts what the renderer sends
 * and rejects what receivers would reject, and the document stays valid.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
// The JSON Schema 2020-12 validator the OpenAPI validator itself uses (OpenAPI 3.1's dialect).
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  EVENT_PAYLOAD_FIELDS,
  type EventPayload,
  renderEventPayload,
} from "../../../functions/core/notifications/index.ts";
import { buildOpenApiDocument } from "../../../functions/http/openapi/document.ts";
import { makeEvent, OWNER } from "../notifications/helpers.ts";

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
}
interface Document {
  webhooks: Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: { $ref?: string } }> } } }
  >;
  components: {
    schemas: {
      EventPayload: {
        type: string;
        required: string[];
        additionalProperties: boolean;
        properties: Record<string, PropertySchema>;
      };
    };
  };
}

const document = buildOpenApiDocument() as unknown as Document;
const schema = document.components.schemas.EventPayload;
const validate = new Ajv2020({ strict: false }).compile(schema);
const types = (name: string) => [schema.properties[name]?.type].flat();

describe("OpenAPI document: the Event payload schema", () => {
  it("stays a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("is referenced from a top-level webhooks entry", () => {
    const content = document.webhooks.eventPayload?.post.requestBody.content;
    expect(content?.["application/json"]?.schema.$ref).toBe("#/components/schemas/EventPayload");
  });

  it("lists every spec field, all required, nothing else", () => {
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties)).toEqual([...EVENT_PAYLOAD_FIELDS]);
    expect(schema.required).toEqual([...EVENT_PAYLOAD_FIELDS]);
    expect(schema.additionalProperties).toBe(false);
  });

  it("states the enums of Type and EventStatus", () => {
    expect(schema.properties.Type?.enum).toEqual(["Event", "Missed", "ProActive"]);
    expect(schema.properties.EventStatus?.enum).toEqual(["Creation", "Replan", "Update"]);
  });

  it("states each field's type and which may be null", () => {
    const nullable = EVENT_PAYLOAD_FIELDS.filter((field) => types(field).includes("null"));
    expect(nullable).toEqual([
      // No invented flight: null without a booking.
      "CarrierCode",
      "FlightNumber",
      "WeightReported",
      "WeightCode",
      "MilestoneReportedLocalTimeStamp",
      "MilestoneReportedUtcTimeStamp",
      "TavGap",
      "PlannedLocalTimeStamp",
      "PlannedUtcTimeStamp",
    ]);
    expect(types("PiecesReported")).toEqual(["integer"]);
    expect(types("TotalShipmentPieces")).toEqual(["integer"]);
    expect(types("WeightReported")).toEqual(["number", "null"]);
    expect(types("isRM")).toEqual(["boolean"]);
    expect(types("TavGap")).toEqual(["null"]);
    for (const field of EVENT_PAYLOAD_FIELDS) expect(types(field).length, field).toBeGreaterThan(0);
  });

  it("accepts what the renderer sends: a reported event, a Missed and a ProActive alert", () => {
    const missed = makeEvent({ type: "Missed", reported: null, piecesReported: 0, weightReported: null });
    for (const event of [makeEvent(), missed, { ...missed, type: "ProActive" as const }]) {
      const payload = renderEventPayload(event, OWNER);
      expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it("rejects what receivers reject: an unknown Type, an extra field, an alert claiming a report", () => {
    const sent = renderEventPayload(makeEvent(), OWNER);
    const alert: EventPayload = {
      ...renderEventPayload(makeEvent({ type: "Missed", reported: null }), OWNER),
    };
    expect(validate({ ...sent, Type: "Reminder" })).toBe(false);
    expect(validate({ ...sent, EventStatus: "Created" })).toBe(false);
    expect(validate({ ...sent, Extra: 1 })).toBe(false);
    expect(validate({ ...sent, AirWaybillNumber: "1234567" })).toBe(false);
    expect(validate({ ...sent, MilestoneReportedUtcTimeStamp: "2026-03-14T12:41:00Z" })).toBe(false);
    expect(validate(alert)).toBe(true);
    expect(validate({ ...alert, PiecesReported: 10 })).toBe(false);
    expect(validate({ ...alert, WeightReported: 250, WeightCode: "K" })).toBe(false);
    expect(validate({ ...alert, MilestoneReportedUtcTimeStamp: sent.MilestoneReportedUtcTimeStamp })).toBe(
      false,
    );
    expect(validate({ ...alert, PlannedUtcTimeStamp: null })).toBe(false);
  });
});
