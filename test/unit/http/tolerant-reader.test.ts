/**
 * Issue 11 point 2 (tolerant reader) and point 13 (control characters in a Url) on the request
 * schemas of every JSON route, and the one rule for secrets sent back (resolveSentSecret).
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  isMaskedSecret,
  maskSecret,
  resolveSentSecret,
  TargetUrlSchema,
} from "../../../functions/core/notifications/common.ts";
import { CustomerEndpointRequestSchema } from "../../../functions/core/notifications/customer-endpoints.ts";
import { CarrierSettingsSchema } from "../../../functions/http/schemas/carriers.ts";
import { RouteMapSearchSchema, SendsmeRequestSchema } from "../../../functions/http/schemas/route-maps.ts";

const fieldsOf = (schema: v.GenericSchema, body: unknown) => {
  const result = v.safeParse(schema, body);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? "(body)");
};
const outputOf = (schema: v.GenericSchema, body: unknown) => v.parse(schema, body) as Record<string, unknown>;

describe("tolerant reader: unknown and response-only members are ignored, wrong types are not", () => {
  it("carrier settings (a GET body echoed, nested Planning objects included)", () => {
    const echoed = {
      AirlinePrefix: "020",
      Name: "Carrier",
      QualityProgram: true,
      Xtd: false,
      Planning: {
        Offsets: { DepAfterStd: 30, Bogus: 1 },
        RoadFeederFlightNumbers: [{ Pattern: "9\\d{3}", Note: "x" }],
      },
      Extra: [1],
    };
    expect(fieldsOf(CarrierSettingsSchema, echoed)).toEqual([]);
    const output = outputOf(CarrierSettingsSchema, echoed);
    expect(output).not.toHaveProperty("AirlinePrefix");
    expect(output).not.toHaveProperty("Extra");
    expect(output.Planning).toEqual({
      Offsets: { DepAfterStd: 30 },
      RoadFeederFlightNumbers: [{ Pattern: "9\\d{3}" }],
    });
    expect(fieldsOf(CarrierSettingsSchema, { ...echoed, Xtd: "no" })).toEqual(["Xtd"]);
    expect(fieldsOf(CarrierSettingsSchema, { ...echoed, Planning: [] })).toEqual(["Planning"]);
  });

  it("sendsme and search", () => {
    const sendsme = {
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      AgentCode: "1234567",
      AgentCass: "0001",
      Note: 1,
    };
    expect(fieldsOf(SendsmeRequestSchema, sendsme)).toEqual([]);
    expect(outputOf(SendsmeRequestSchema, sendsme)).not.toHaveProperty("Note");
    expect(fieldsOf(SendsmeRequestSchema, { ...sendsme, IsXTD: "yes" })).toEqual(["IsXTD"]);
    const search = { CreationDate: { From: "2026-03-01", Note: "x" }, Extra: true };
    expect(fieldsOf(RouteMapSearchSchema, search)).toEqual([]);
    expect(outputOf(RouteMapSearchSchema, search)).toEqual({ CreationDate: { From: "2026-03-01" } });
    expect(fieldsOf(RouteMapSearchSchema, { AirlinePrefix: 20 })).toEqual(["AirlinePrefix"]);
  });

  it("customer endpoint registration", () => {
    const body = {
      ForwarderIdentifier: "ACMECARGO",
      Url: "https://customer.example/in",
      HeaderName: "apiKey",
      HeaderValue: "customer-key-0001",
      Id: "ignored",
    };
    expect(fieldsOf(CustomerEndpointRequestSchema, body)).toEqual([]);
    expect(outputOf(CustomerEndpointRequestSchema, body)).not.toHaveProperty("Id");
  });
});

describe("Url: no whitespace or control characters anywhere (point 13)", () => {
  it.each([
    "https://x.example/a\r\nb",
    "https://x.example/a\nb",
    "https://x.example/a\tb",
    "https://x.example/a b",
    "https://x.example/a\u0000b",
    "https://x.example/a\u007fb",
    "https://x.example/a\u00a0b",
    " https://x.example/a",
    "https://x.example/a\r\n",
  ])("refuses %j", (url) => {
    expect(v.safeParse(TargetUrlSchema, url).success).toBe(false);
  });

  it("accepts a percent-encoded one", () => {
    expect(v.safeParse(TargetUrlSchema, "https://x.example/a%20b%0D%0A").success).toBe(true);
  });
});

describe("resolveSentSecret", () => {
  const stored = "a-stored-secret-value-1234";
  it.each([
    ["absent keeps", undefined, stored, false, { ok: true, value: stored }],
    ["null removes", null, stored, false, { ok: true, value: null }],
    [
      "a new value replaces",
      "new-secret-value-0000",
      stored,
      false,
      { ok: true, value: "new-secret-value-0000" },
    ],
    ["the stored one's mask keeps it", maskSecret(stored), stored, false, { ok: true, value: stored }],
    ["absent without a stored one is none", undefined, null, true, { ok: true, value: null }],
    [
      "a new value with a new Url",
      "new-secret-value-0000",
      stored,
      true,
      { ok: true, value: "new-secret-value-0000" },
    ],
    ["null with a new Url", null, stored, true, { ok: true, value: null }],
  ] as const)("%s", (_name, sent, current, urlChanged, expected) => {
    expect(resolveSentSecret(sent, current, urlChanged)).toEqual(expected);
  });

  it.each([
    ["another mask", "••••zzzz", stored, false],
    ["a mask without a stored secret", "••••1234", null, false],
    ["absent with a new Url", undefined, stored, true],
    ["the right mask with a new Url", maskSecret(stored), stored, true],
  ] as const)("refuses %s", (_name, sent, current, urlChanged) => {
    expect(resolveSentSecret(sent, current, urlChanged)).toMatchObject({ ok: false });
  });

  it("isMaskedSecret knows the masked forms only", () => {
    expect(isMaskedSecret("••••")).toBe(true);
    expect(isMaskedSecret("••••abcd")).toBe(true);
    expect(isMaskedSecret("••••abcde")).toBe(false);
    expect(isMaskedSecret("abcd••••")).toBe(false);
  });
});
