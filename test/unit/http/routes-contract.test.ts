/** The plain-data route table (functions/contracts/routes.ts) agrees with what the runtime accepts. */
import { describe, expect, it } from "vitest";
import { CARRIER_CONTENT_TYPES } from "../../../functions/contracts/carrier-formats.ts";
import { ROUTES } from "../../../functions/contracts/routes.ts";
import { SUPPORTED_CARRIER_CONTENT_TYPES } from "../../../functions/core/carrier-messages/index.ts";

describe("route table contract", () => {
  it("lists exactly the carrier content types the parsers accept", () => {
    expect([...CARRIER_CONTENT_TYPES]).toEqual([...SUPPORTED_CARRIER_CONTENT_TYPES]);
    const ingest = ROUTES.find((route) => route.handler === "ingest-carrier-message");
    expect(ingest?.body?.contentTypes).toEqual([...SUPPORTED_CARRIER_CONTENT_TYPES]);
  });

  it("names each handler once", () => {
    const handlers = ROUTES.map((route) => route.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
  });
});
