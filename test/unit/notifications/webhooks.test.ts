import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { InvalidFieldsError } from "../../../functions/core/errors.ts";
import {
  applyWebhookUpdate,
  CustomerEndpointRequestSchema,
  customerEndpointFromRequest,
  customerEndpointToApi,
  disableWebhook,
  isEndpointUsableBy,
  isWebhookActive,
  jwtProblem,
  markWebhookVerificationFailed,
  markWebhookVerified,
  maskSecret,
  parseAwbFilter,
  WebhookRequestSchema,
  WebhookUpdateSchema,
  webhookFromRequest,
  webhookToApi,
} from "../../../functions/core/notifications/index.ts";
import { ENDPOINT_GUID, makeJwt, NOW, OWNER, webhookBody } from "./helpers.ts";

function fieldsOf(schema: v.GenericSchema, body: unknown): string[] {
  const result = v.safeParse(schema, body);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? "(body)");
}

const WHSEC = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

describe("webhook request", () => {
  it.each([
    ["minimal", webhookBody()],
    ["every event", webhookBody({ Event: "FWB,LAT,RCS,DEP,ARR,RCF,NFD,DLV,RMP,CAN" })],
    ["xml, disabled", webhookBody({ Type: "xml", Enable: false })],
    ["http URL (production https is enforced at delivery)", webhookBody({ Url: "http://localhost:8080/x" })],
    ["carrier filter", webhookBody({ AWB: "020" })],
    ["AWB filter 11 digits", webhookBody({ AWB: "02012345675" })],
    ["AWB filter with dash", webhookBody({ AWB: "020-12345675" })],
    ["AWB null", webhookBody({ AWB: null })],
    ["AWB absent", webhookBody({ AWB: undefined })],
    ["token", webhookBody({ Token: makeJwt() })],
    ["raw psk", webhookBody({ Psk: "0123456789abcdef" })],
    ["whsec psk", webhookBody({ Psk: WHSEC })],
    // Tolerant reader: response-only and unknown members are ignored.
    ["Enabled (the response name) instead of Enable", webhookBody({ Enable: undefined, Enabled: true })],
    [
      "response-only and unknown members",
      webhookBody({ Id: 3, ForwarderIdentifier: "X", Verified: true, Extra: [1] }),
    ],
    ["a masked secret (judged against the stored one)", webhookBody({ Psk: "••••abcd", Token: "••••dXJl" })],
  ])("accepts %s", (_name, body) => {
    expect(fieldsOf(WebhookRequestSchema, body)).toEqual([]);
  });

  it.each([
    ["unknown event", webhookBody({ Event: "DEP,XYZ" }), ["Event"]],
    ["AWD is not a webhook event", webhookBody({ Event: "AWD" }), ["Event"]],
    ["duplicate event", webhookBody({ Event: "DEP,DEP" }), ["Event"]],
    ["empty event", webhookBody({ Event: "" }), ["Event"]],
    ["ftp URL", webhookBody({ Url: "ftp://example.com/x" }), ["Url"]],
    ["relative URL", webhookBody({ Url: "/hooks" }), ["Url"]],
    ["credentials in URL", webhookBody({ Url: "https://user:pw@example.com/" }), ["Url"]],
    ["URL too long", webhookBody({ Url: `https://example.com/${"a".repeat(2040)}` }), ["Url"]],
    ["Enable missing", webhookBody({ Enable: undefined }), ["Enable"]],
    ["Enabled of the wrong type", webhookBody({ Enable: undefined, Enabled: "yes" }), ["Enabled"]],
    ["URL with CR/LF", webhookBody({ Url: "https://example.com/a\r\nb" }), ["Url"]],
    ["URL with a tab", webhookBody({ Url: "https://example.com/a\tb" }), ["Url"]],
    ["URL with a space", webhookBody({ Url: "https://example.com/a b" }), ["Url"]],
    ["URL with a trailing line break", webhookBody({ Url: "https://example.com/a\n" }), ["Url"]],
    ["bad type", webhookBody({ Type: "JSON" }), ["Type"]],
    ["AWB filter 2 digits", webhookBody({ AWB: "02" }), ["AWB"]],
    ["AWB filter bad check digit", webhookBody({ AWB: "02012345676" }), ["AWB"]],
    ["token not a JWT", webhookBody({ Token: "abc" }), ["Token"]],
    ["token alg none", webhookBody({ Token: makeJwt({ alg: "none" }) }), ["Token"]],
    ["token without alg", webhookBody({ Token: makeJwt({ typ: "JWT" }) }), ["Token"]],
    ["token header not JSON", webhookBody({ Token: "bm90IGpzb24.e30.c2ln" }), ["Token"]],
    ["token payload an array", webhookBody({ Token: makeJwt(undefined, [1, 2]) }), ["Token"]],
    [
      "token with empty signature",
      webhookBody({ Token: `${makeJwt().split(".").slice(0, 2).join(".")}.` }),
      ["Token"],
    ],
    ["psk too short", webhookBody({ Psk: "short" }), ["Psk"]],
    ["psk with spaces", webhookBody({ Psk: "0123456789 abcdef" }), ["Psk"]],
    ["whsec not base64", webhookBody({ Psk: "whsec_***notbase64***" }), ["Psk"]],
    ["whsec too short a key", webhookBody({ Psk: `whsec_${Buffer.alloc(8).toString("base64")}` }), ["Psk"]],
    ["a masked-looking secret that is too long to be a mask", webhookBody({ Psk: "••••abcdefgh" }), ["Psk"]],
  ])("refuses %s", (_name, body, fields) => {
    expect(fieldsOf(WebhookRequestSchema, body)).toEqual(fields);
  });

  it("names the expected check digit of an AWB filter", () => {
    expect(parseAwbFilter("02012345676")).toEqual({
      ok: false,
      message: expect.stringContaining("must be 5"),
    });
  });

  it("jwtProblem is null for a good token", () => {
    expect(jwtProblem(makeJwt({ alg: "RS256", kid: "k1" }, { sub: "a", exp: 1 }))).toBeNull();
    expect(jwtProblem(makeJwt({ alg: "NONE" }))).toMatch(/none/);
  });
});

describe("webhook domain and response", () => {
  const token = makeJwt();
  const request = v.parse(
    WebhookRequestSchema,
    webhookBody({ AWB: "020-12345675", Token: token, Psk: WHSEC }),
  );
  const webhook = webhookFromRequest(request, { id: 9, owner: OWNER, now: NOW });

  it("starts pending verification and is active at once: Enable true means enabled", () => {
    expect(webhook.verification).toEqual({ status: "pending", reason: null, checkedAt: NOW });
    expect(isWebhookActive(webhook)).toBe(true);
    expect(isWebhookActive(markWebhookVerified(webhook, NOW))).toBe(true);
    expect(isWebhookActive(markWebhookVerificationFailed(webhook, "HTTP 204", NOW))).toBe(true);
  });

  it("a masked secret on creation is a 400 naming it", () => {
    const masked = v.parse(WebhookRequestSchema, webhookBody({ Psk: "••••abcd" }));
    expect(() => webhookFromRequest(masked, { id: 1, owner: OWNER, now: NOW })).toThrow(InvalidFieldsError);
  });

  it("an echoed GET body keeps the stored secrets; a wrong mask is refused", () => {
    const echoed = { ...webhookToApi(webhook, { revealSecrets: false }), Event: "DEP" };
    const updated = applyWebhookUpdate(webhook, v.parse(WebhookUpdateSchema, echoed), NOW);
    expect(updated).toMatchObject({ token, psk: WHSEC, enabled: true, events: ["DEP"] });
    const wrong = v.parse(WebhookUpdateSchema, { ...echoed, Psk: "••••zzzz" });
    expect(() => applyWebhookUpdate(webhook, wrong, NOW)).toThrow(/Psk/);
  });

  it("answers the spec fields then Verified/LastVerification; secrets revealed only when asked", () => {
    const created = webhookToApi(webhook, { revealSecrets: true });
    expect(Object.keys(created)).toEqual([
      "Id",
      "ForwarderIdentifier",
      "Event",
      "Url",
      "Token",
      "Enabled",
      "Type",
      "Psk",
      "AWB",
      "Verified",
      "LastVerification",
    ]);
    expect(created).toEqual({
      Id: 9,
      ForwarderIdentifier: OWNER.forwarderId,
      Event: "DEP,ARR,RMP",
      Url: "https://hooks.forwarder.example/routemap",
      Token: token,
      Enabled: true,
      Type: "json",
      Psk: WHSEC,
      AWB: "02012345675",
      Verified: false,
      LastVerification: null,
    });
    expect(
      webhookToApi(markWebhookVerificationFailed(webhook, "HTTP 204", NOW), { revealSecrets: false }),
    ).toMatchObject({
      Verified: false,
      LastVerification: { Outcome: "failed", At: NOW, Detail: "HTTP 204" },
    });
    const later = webhookToApi(webhook, { revealSecrets: false });
    expect(later.Token).toBe(`••••${token.slice(-4)}`);
    expect(later.Psk).toBe(`••••${WHSEC.slice(-4)}`);
  });

  it("no secrets and no filter answer null", () => {
    const plain = webhookFromRequest(v.parse(WebhookRequestSchema, webhookBody()), {
      id: 1,
      owner: OWNER,
      now: NOW,
    });
    expect(webhookToApi(plain, { revealSecrets: false })).toMatchObject({
      Token: null,
      Psk: null,
      AWB: null,
    });
  });

  it("PUT: a new Url needs verification and the secrets again; null removes", () => {
    const verified = markWebhookVerified(webhook, NOW);
    const sameUrl = applyWebhookUpdate(
      verified,
      v.parse(WebhookUpdateSchema, webhookBody()),
      "2026-03-15T00:00:00Z",
    );
    expect(sameUrl.verification.status).toBe("verified");
    expect(sameUrl.token).toBe(token);
    expect(sameUrl.psk).toBe(WHSEC);
    const kept = v.parse(WebhookUpdateSchema, webhookBody({ Url: "https://other.example/", Token: null }));
    expect(() => applyWebhookUpdate(verified, kept, NOW)).toThrow(InvalidFieldsError);
    const maskedMove = v.parse(
      WebhookUpdateSchema,
      webhookBody({ Url: "https://other.example/", Token: maskSecret(token), Psk: maskSecret(WHSEC) }),
    );
    let refused: unknown;
    try {
      applyWebhookUpdate(verified, maskedMove, NOW);
    } catch (error) {
      refused = error;
    }
    expect((refused as InvalidFieldsError).errors.map((e) => e.field)).toEqual(["Token", "Psk"]);
    const moved = applyWebhookUpdate(
      verified,
      v.parse(WebhookUpdateSchema, webhookBody({ Url: "https://other.example/", Token: null, Psk: WHSEC })),
      "2026-03-15T00:00:00Z",
    );
    expect(moved.verification.status).toBe("pending");
    expect(moved.token).toBeNull();
    expect(moved.psk).toBe(WHSEC);
  });

  it("410 disables with a reason", () => {
    const gone = disableWebhook(markWebhookVerified(webhook, NOW), "receiver answered 410 Gone", NOW);
    expect(gone.enabled).toBe(false);
    expect(gone.disabledReason).toMatch(/410/);
    expect(isWebhookActive(gone)).toBe(false);
  });

  it("PUT Enable:true on a webhook a 410 switched off needs verification again", () => {
    const gone = disableWebhook(markWebhookVerified(webhook, NOW), "receiver answered 410 Gone", NOW);
    const later = "2026-03-15T00:00:00Z";
    const back = applyWebhookUpdate(gone, v.parse(WebhookUpdateSchema, webhookBody()), later);
    expect(back.enabled).toBe(true);
    expect(back.disabledReason).toBeNull();
    expect(back.verification).toEqual({ status: "pending", reason: null, checkedAt: later });
    expect(isWebhookActive(back)).toBe(true);
    // Left off: nothing to verify, the reason stays.
    const stillOff = applyWebhookUpdate(
      gone,
      v.parse(WebhookUpdateSchema, webhookBody({ Enable: false })),
      later,
    );
    expect(stillOff.verification.status).toBe("verified");
    expect(stillOff.disabledReason).toMatch(/410/);
    // Switched off by the forwarder (no 410): switching it on keeps the verification.
    const paused = { ...markWebhookVerified(webhook, NOW), enabled: false };
    const resumed = applyWebhookUpdate(paused, v.parse(WebhookUpdateSchema, webhookBody()), later);
    expect(resumed.verification.status).toBe("verified");
  });

  it("maskSecret shows the last 4 characters of long secrets, nothing of short ones", () => {
    expect(maskSecret("abcdefghijklmnop")).toBe("••••mnop");
    expect(maskSecret("short-secret")).toBe("••••cret");
    expect(maskSecret("tiny")).toBe("••••");
    expect(maskSecret("elevenchars")).toBe("••••");
  });
});

describe("customer endpoints (support)", () => {
  const body = {
    ForwarderIdentifier: "FWDOWNERX",
    Url: "https://customer.example/inbound",
    HeaderName: "apiKey",
    HeaderValue: "k3y-value-1234567890",
  };

  it("accepts a valid registration", () => {
    expect(fieldsOf(CustomerEndpointRequestSchema, body)).toEqual([]);
    expect(fieldsOf(CustomerEndpointRequestSchema, { ...body, HeaderName: "Authorization" })).toEqual([]);
  });

  it.each([
    ["empty forwarder", { ForwarderIdentifier: "" }, ["ForwarderIdentifier"]],
    ["header name with space", { HeaderName: "api key" }, ["HeaderName"]],
    ["header name with colon", { HeaderName: "api:key" }, ["HeaderName"]],
    ["reserved header name", { HeaderName: "Content-Length" }, ["HeaderName"]],
    ["header value with CRLF", { HeaderValue: "x\r\nX-Evil: 1" }, ["HeaderValue"]],
    ["header value non-ASCII", { HeaderValue: "café" }, ["HeaderValue"]],
    ["empty header value", { HeaderValue: "" }, ["HeaderValue"]],
    ["bad URL", { Url: "mailto:x@example.com" }, ["Url"]],
    ["URL with CR/LF", { Url: "https://example.com/a\r\nb" }, ["Url"]],
  ])("refuses %s", (_name, change, fields) => {
    expect(fieldsOf(CustomerEndpointRequestSchema, { ...body, ...change })).toEqual(fields);
  });

  it("ignores unknown and response-only members (tolerant reader)", () => {
    expect(fieldsOf(CustomerEndpointRequestSchema, { ...body, Extra: 1, Id: ENDPOINT_GUID })).toEqual([]);
  });

  it("masks the header value after creation and checks the owner", () => {
    const endpoint = customerEndpointFromRequest(v.parse(CustomerEndpointRequestSchema, body), {
      id: ENDPOINT_GUID.toUpperCase(),
      now: NOW,
    });
    expect(endpoint.id).toBe(ENDPOINT_GUID);
    expect(customerEndpointToApi(endpoint, { revealSecrets: true }).HeaderValue).toBe(body.HeaderValue);
    expect(customerEndpointToApi(endpoint, { revealSecrets: false })).toEqual({
      Id: ENDPOINT_GUID,
      ForwarderIdentifier: "FWDOWNERX",
      Url: body.Url,
      HeaderName: "apiKey",
      HeaderValue: "••••7890",
    });
    expect(isEndpointUsableBy(endpoint, "FWDOWNERX")).toBe(true);
    expect(isEndpointUsableBy(endpoint, "fwd-other")).toBe(false);
    expect(isEndpointUsableBy(null, "FWDOWNERX")).toBe(false);
  });
});
