import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  applyRuleUpdate,
  NotificationRuleRequestSchema,
  NotificationRuleUpdateSchema,
  type RuleValidationContext,
  ruleFromRequest,
  ruleToApi,
  validateRuleRequest,
} from "../../../functions/core/notifications/index.ts";
import { ENDPOINT_GUID, emailRuleBody, NOW, OWNER, urlRuleBody } from "./helpers.ts";

const unchecked: RuleValidationContext = { isRegisteredEndpoint: null };

function fieldsOf(body: unknown, ctx: RuleValidationContext = unchecked): string[] {
  const result = validateRuleRequest(body, ctx);
  return result.ok ? [] : result.errors.map((error) => error.field);
}

describe("notification rule request: passing cases", () => {
  it.each([
    ["e-mail event rule", emailRuleBody()],
    ["url event rule", urlRuleBody()],
    ["missed DEP rule", emailRuleBody({ EventAlert: false, MissedEventAlert: true, Event: "DEP" })],
    [
      "proactive rule 240 min",
      emailRuleBody({ EventAlert: false, ProActiveAlert: true, ProActiveTime: 240 }),
    ],
    ["carrier prefix", emailRuleBody({ AirlinePrefix: "020" })],
    ["one AWB", emailRuleBody({ AirlinePrefix: "020", AwbNumber: "12345675" })],
    ["destination and origin filter", emailRuleBody({ Destination: "JFK", Origin: "FRA" })],
    ["AWD allowed", emailRuleBody({ Event: "AWD" })],
    ["all header items", emailRuleBody({ HeaderItems: "AWB,MIL,NTF,STN,RTG,RMT,AGT,BRA" })],
    ["spaces around commas", emailRuleBody({ Event: "DEP, ARR" })],
    ["optional fields absent", urlRuleBody({ AwbNumber: undefined, Destination: undefined })],
    ["null Origin", emailRuleBody({ Origin: null })],
    ["disabled", emailRuleBody({ Enabled: false })],
  ])("%s", (_name, body) => {
    expect(validateRuleRequest(body, unchecked)).toMatchObject({ ok: true });
  });

  it("the schema alone is usable by the HTTP pipeline (same verdicts)", () => {
    expect(v.safeParse(NotificationRuleRequestSchema, emailRuleBody()).success).toBe(true);
    const bad = v.safeParse(NotificationRuleRequestSchema, emailRuleBody({ FormatType: "Json" }));
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.issues.map((issue) => v.getDotPath(issue))).toEqual(["FormatType"]);
  });
});

describe("notification rule request: failing cases name the field", () => {
  it.each([
    ["no alert flag", emailRuleBody({ EventAlert: false }), ["EventAlert"]],
    ["two alert flags", emailRuleBody({ MissedEventAlert: true }), ["MissedEventAlert"]],
    [
      "three alert flags",
      emailRuleBody({ MissedEventAlert: true, ProActiveAlert: true, ProActiveTime: 10 }),
      ["MissedEventAlert", "ProActiveAlert"],
    ],
    ["proactive without time", emailRuleBody({ EventAlert: false, ProActiveAlert: true }), ["ProActiveTime"]],
    ["time without proactive", emailRuleBody({ ProActiveTime: 60 }), ["ProActiveTime"]],
    ["time not integer", emailRuleBody({ ProActiveTime: 1.5 }), ["ProActiveTime"]],
    ["time negative", emailRuleBody({ ProActiveTime: -1 }), ["ProActiveTime"]],
    [
      "time above a week",
      emailRuleBody({ EventAlert: false, ProActiveAlert: true, ProActiveTime: 10_081 }),
      ["ProActiveTime"],
    ],
    ["email without header items", emailRuleBody({ HeaderItems: "" }), ["HeaderItems"]],
    ["email header items absent", emailRuleBody({ HeaderItems: undefined }), ["HeaderItems"]],
    ["unknown header item", emailRuleBody({ HeaderItems: "AWB,XYZ" }), ["HeaderItems"]],
    ["duplicate header item", emailRuleBody({ HeaderItems: "AWB,AWB" }), ["HeaderItems"]],
    ["email NotifyTo not an address", emailRuleBody({ NotifyTo: "not-an-email" }), ["NotifyTo"]],
    ["email FormatType Json", emailRuleBody({ FormatType: "Json" }), ["FormatType"]],
    ["url NotifyTo not a GUID", urlRuleBody({ NotifyTo: "ops@forwarder.example" }), ["NotifyTo"]],
    ["url HeaderItems not empty", urlRuleBody({ HeaderItems: "AWB" }), ["HeaderItems"]],
    ["url FormatType Html", urlRuleBody({ FormatType: "Html" }), ["FormatType"]],
    ["bad channel", emailRuleBody({ ChannelType: "Sms" }), ["ChannelType"]],
    ["unknown event", emailRuleBody({ Event: "DEP,FOO" }), ["Event"]],
    ["RMP is webhook-only", emailRuleBody({ Event: "RMP" }), ["Event"]],
    ["duplicate event", emailRuleBody({ Event: "DEP,DEP" }), ["Event"]],
    ["empty event", emailRuleBody({ Event: "" }), ["Event"]],
    ["lower-case event", emailRuleBody({ Event: "dep" }), ["Event"]],
    ["prefix not 3 digits", emailRuleBody({ AirlinePrefix: "20" }), ["AirlinePrefix"]],
    ["AWB needs a prefix", emailRuleBody({ AwbNumber: "12345675" }), ["AirlinePrefix"]],
    ["AWB not 8 digits", emailRuleBody({ AirlinePrefix: "020", AwbNumber: "1234567" }), ["AwbNumber"]],
    ["AWB check digit", emailRuleBody({ AirlinePrefix: "020", AwbNumber: "12345676" }), ["AwbNumber"]],
    ["destination not 3 letters", emailRuleBody({ Destination: "JF" }), ["Destination"]],
    ["origin lower case", emailRuleBody({ Origin: "fra" }), ["Origin"]],
    ["Enabled missing", emailRuleBody({ Enabled: undefined }), ["Enabled"]],
  ])("%s", (_name, body, fields) => {
    expect(fieldsOf(body)).toEqual(fields);
  });

  it("tolerant reader: unknown and response-only members are ignored", () => {
    const echoed = emailRuleBody({
      Colour: "red",
      Id: 7,
      ForwarderIdentifier: "SOMEONE",
      AgentCode: "0000000",
      AgentCass: "0000",
      IgnoreStation: null,
    });
    const result = validateRuleRequest(echoed, unchecked);
    expect(result.ok).toBe(true);
    expect(result.ok && Object.keys(result.value)).not.toContain("Colour");
    expect(result.ok && Object.keys(result.value)).not.toContain("ForwarderIdentifier");
    expect(fieldsOf(emailRuleBody({ Id: 7, EventAlert: "yes" }))).toEqual(["EventAlert"]);
  });

  it("names the expected check digit", () => {
    const result = validateRuleRequest(
      emailRuleBody({ AirlinePrefix: "020", AwbNumber: "12345676" }),
      unchecked,
    );
    expect(result.ok ? "" : result.errors[0]?.message).toContain("5");
  });

  it("reports every bad field at once", () => {
    expect(fieldsOf(emailRuleBody({ NotifyTo: "x", FormatType: "Json", HeaderItems: "" })).sort()).toEqual([
      "FormatType",
      "HeaderItems",
      "NotifyTo",
    ]);
  });

  it("an unregistered customer endpoint fails on NotifyTo; a registered one passes", () => {
    expect(fieldsOf(urlRuleBody(), { isRegisteredEndpoint: false })).toEqual(["NotifyTo"]);
    expect(fieldsOf(urlRuleBody(), { isRegisteredEndpoint: true })).toEqual([]);
    // The endpoint check is about Url rules only.
    expect(fieldsOf(emailRuleBody(), { isRegisteredEndpoint: false })).toEqual([]);
  });
});

describe("rule domain and response", () => {
  const request = v.parse(
    NotificationRuleRequestSchema,
    emailRuleBody({ AirlinePrefix: "020", AwbNumber: "12345675", Destination: "JFK" }),
  );
  const rule = ruleFromRequest(request, { id: 42, owner: OWNER, now: NOW });

  it("builds the camelCase domain rule", () => {
    expect(rule).toMatchObject({
      id: 42,
      channel: "Email",
      headerItems: ["AWB", "MIL", "NTF"],
      events: ["DEP", "ARR", "NFD", "DLV"],
      alert: { kind: "Event" },
      airlinePrefix: "020",
      awbSerial: "12345675",
      destination: "JFK",
      origin: null,
    });
  });

  it("answers the request fields plus Id, ForwarderIdentifier, AgentCode, AgentCass, Origin, IgnoreStation", () => {
    const api = ruleToApi(rule);
    expect(Object.keys(api)).toEqual([
      "ChannelType",
      "NotifyTo",
      "HeaderItems",
      "FormatType",
      "AirlinePrefix",
      "AwbNumber",
      "Event",
      "EventAlert",
      "MissedEventAlert",
      "ProActiveAlert",
      "ProActiveTime",
      "Destination",
      "Enabled",
      // Our request member, echoed like the spec's request fields.
      "ShareLinkHours",
      "Id",
      "ForwarderIdentifier",
      "AgentCode",
      "AgentCass",
      "Origin",
      "IgnoreStation",
    ]);
    expect(api).toMatchObject({
      Id: 42,
      ForwarderIdentifier: OWNER.forwarderId,
      AgentCode: OWNER.agentCode,
      AgentCass: OWNER.agentCass,
      Origin: null,
      IgnoreStation: null,
      HeaderItems: "AWB,MIL,NTF",
      Event: "DEP,ARR,NFD,DLV",
    });
  });

  it("round-trips a proactive url rule through its response", () => {
    const body = urlRuleBody({ EventAlert: false, ProActiveAlert: true, ProActiveTime: 240, Origin: "FRA" });
    const proactive = ruleFromRequest(v.parse(NotificationRuleRequestSchema, body), {
      id: 7,
      owner: OWNER,
      now: NOW,
    });
    const api = ruleToApi(proactive);
    expect(api).toMatchObject({
      ProActiveAlert: true,
      ProActiveTime: 240,
      NotifyTo: ENDPOINT_GUID,
      Origin: "FRA",
    });
    // What the API answers is again a valid request (apart from the added fields).
    const {
      Id: _id,
      ForwarderIdentifier: _f,
      AgentCode: _c,
      AgentCass: _s,
      IgnoreStation: _i,
      ...again
    } = api;
    expect(validateRuleRequest(again, unchecked).ok).toBe(true);
  });

  it("PUT replaces the rule but keeps id, owner and creation time", () => {
    const update = v.parse(NotificationRuleUpdateSchema, emailRuleBody({ Enabled: false, Event: "ARR" }));
    const updated = applyRuleUpdate(rule, update, "2026-03-15T00:00:00Z");
    expect(updated).toMatchObject({ id: 42, owner: OWNER, createdAt: NOW, enabled: false, events: ["ARR"] });
    expect(updated.updatedAt).toBe("2026-03-15T00:00:00Z");
  });
});
