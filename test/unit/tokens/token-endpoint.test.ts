/**
 * Issue 12: the local /oauth2/token's request parsing (form body, HTTP Basic per RFC 6749 section
 * 2.3.1, client_secret_post), without the runner.
 */
import { describe, expect, it } from "vitest";
import { basicCredentials, parseTokenRequest } from "../../../bin/local/token-endpoint.ts";

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString("base64")}`;
const FORM = "application/x-www-form-urlencoded";
const parse = (body: string, authorization?: string, contentType: string | null = FORM, method = "POST") =>
  parseTokenRequest({ method, contentType: contentType ?? undefined, authorization, body });

describe("HTTP Basic client credentials", () => {
  it("form-decodes the id and the secret around the first colon", () => {
    expect(basicCredentials(basic("abc:s3cret"))).toEqual({ clientId: "abc", clientSecret: "s3cret" });
    expect(basicCredentials(basic("a%3Ab+c:x%3Ay%2B+z"))).toEqual({
      clientId: "a:b c",
      clientSecret: "x:y+ z",
    });
    expect(basicCredentials(`basic  ${Buffer.from("id:se:cret").toString("base64")}`)).toEqual({
      clientId: "id",
      clientSecret: "se:cret",
    });
  });

  it("refuses malformed Basic credentials", () => {
    for (const header of [
      basic("no-colon"),
      basic(":secret"),
      basic("id:"),
      basic("id:%E0%A4%A"),
      "Basic",
      "Basic !!!",
      "Basic a",
      "Bearer abc",
    ])
      expect(basicCredentials(header), header).toBeNull();
  });
});

describe("token request parsing", () => {
  it("reads grant_type, scope and Basic credentials", () => {
    expect(parse("grant_type=client_credentials&scope=routemap%2Fforwarder", basic("id:secret"))).toEqual({
      ok: true,
      request: {
        clientId: "id",
        clientSecret: "secret",
        grantType: "client_credentials",
        scope: "routemap/forwarder",
      },
    });
  });

  it("reads client_secret_post credentials, and a body client_id equal to the Basic one", () => {
    expect(parse("grant_type=client_credentials&client_id=id&client_secret=s+1")).toMatchObject({
      ok: true,
      request: { clientId: "id", clientSecret: "s 1", scope: null },
    });
    expect(parse("grant_type=client_credentials&client_id=id", basic("id:secret"))).toMatchObject({
      ok: true,
      request: { clientId: "id", clientSecret: "secret" },
    });
  });

  it("treats empty parameters as omitted and passes missing ones on as null", () => {
    expect(parse("grant_type=&scope=&client_id=&x")).toEqual({
      ok: true,
      request: { clientId: null, clientSecret: null, grantType: null, scope: null },
    });
    expect(parse("", basic("id:secret"), `${FORM}; charset=UTF-8`)).toMatchObject({ ok: true });
  });

  it("refuses two authentication methods, a differing client_id, a repeated parameter and bad encoding with 400", () => {
    for (const [body, auth] of [
      ["grant_type=client_credentials&client_secret=x", basic("id:secret")],
      ["grant_type=client_credentials&client_id=other", basic("id:secret")],
      ["grant_type=client_credentials&grant_type=client_credentials", basic("id:secret")],
      ["grant_type=%zz", basic("id:secret")],
    ] as const)
      expect(parse(body, auth), body).toMatchObject({
        ok: false,
        refusal: { status: 400, error: "invalid_request" },
      });
  });

  it("refuses malformed Basic and other authorization schemes as invalid_client (401)", () => {
    for (const auth of [basic("nocolon"), "Bearer eyJ", "Digest x"])
      expect(parse("grant_type=client_credentials", auth), auth).toMatchObject({
        ok: false,
        refusal: { status: 401, error: "invalid_client" },
      });
  });

  it("refuses another content type with 415 and another method with 405", () => {
    for (const contentType of ["application/json", "text/plain", "multipart/form-data", null])
      expect(parse("grant_type=client_credentials", basic("id:s"), contentType)).toMatchObject({
        ok: false,
        refusal: { status: 415, error: "invalid_request" },
      });
    expect(parse("", basic("id:s"), FORM, "GET")).toMatchObject({ ok: false, refusal: { status: 405 } });
  });
});
