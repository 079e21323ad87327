/** The OpenAPI document states the Type/EventStatus values of outbound payloads and stays valid. */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../../functions/handlers/http/openapi.ts";

describe("OpenAPI document: event payload values", () => {
  it("lists Type Event | Missed | ProActive and EventStatus Creation | Replan | Update", async () => {
    const document = buildOpenApiDocument() as {
      info: { description: string };
      "x-event-payload": { Type: string[]; EventStatus: string[] };
    };
    expect(document["x-event-payload"].Type).toEqual(["Event", "Missed", "ProActive"]);
    expect(document["x-event-payload"].EventStatus).toEqual(["Creation", "Replan", "Update"]);
    expect(document.info.description).toMatch(/Missed/);
    expect(document.info.description).toMatch(/ProActive/);
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
  });
});
