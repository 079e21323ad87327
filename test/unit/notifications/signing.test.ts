import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { pskKeyBytes, signWebhook } from "../../../functions/core/notifications/index.ts";

const body = JSON.stringify({ IdMessage: "evt-1", Event: "DEP", note: "ünïcödé" });
const id = "evt-1:webhook-7";
// standardwebhooks checks the timestamp against its own clock (5-minute tolerance).
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("signWebhook (Standard Webhooks)", () => {
  it("verifies with the standardwebhooks package for a whsec_ Psk", () => {
    const psk = `whsec_${Buffer.from("a-32-byte-secret-for-hmac-sha256").toString("base64")}`;
    const headers = signWebhook({ id, timestampSeconds: nowSeconds(), body, psk });
    expect(Object.keys(headers)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(psk).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it("verifies for a plain Psk used as UTF-8 bytes (base64 of them given to the verifier)", () => {
    const psk = "plain-shared-secret-ß-1234";
    const headers = signWebhook({ id, timestampSeconds: nowSeconds(), body, psk });
    const verifier = new Webhook(Buffer.from(psk, "utf8").toString("base64"));
    expect(verifier.verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it("matches the package's own signature and fails on a changed body or id", () => {
    const psk = "plain-shared-secret-1234";
    const ts = nowSeconds();
    const headers = signWebhook({ id, timestampSeconds: ts, body, psk });
    const verifier = new Webhook(pskKeyBytes(psk).toString("base64"));
    expect(verifier.sign(id, new Date(ts * 1000), body)).toBe(headers["webhook-signature"]);
    expect(() => verifier.verify(`${body} `, { ...headers })).toThrow();
    expect(() => verifier.verify(body, { ...headers, "webhook-id": "other" })).toThrow();
  });

  it("is deterministic for the same input and stable across retries (same id)", () => {
    const input = { id, timestampSeconds: 1_773_000_000, body, psk: "0123456789abcdef" };
    expect(signWebhook(input)).toEqual(signWebhook(input));
    expect(signWebhook(input)["webhook-timestamp"]).toBe("1773000000");
  });

  it("refuses a non-integer timestamp", () => {
    expect(() => signWebhook({ id, timestampSeconds: 1.5, body, psk: "0123456789abcdef" })).toThrow(
      RangeError,
    );
  });
});
