/**
 * Route-map share links through the real local runner: a forwarder shares its AWB; the Url
 * opens signed out with exactly that route map and nothing naming an agent, then 404 once revoked or
 * expired (the runner's clock moved past ExpiresAt); another forwarder can neither list nor revoke it;
 * bad ExpiresInHours are 400 naming the field and write nothing.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import { TABLES } from "../../functions/contracts/resources.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let db: DynamoDBDocumentClient;
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const stranger = tokens.forwarder("FWD2", "7654321", "0042");
const AWB = "02012345675";
const OTHER_AWB = "02012345686";
const SHARE = `/ffw/service/routemap/${AWB}/share`;
const std = local("FRA", minuteNow() + 6 * HOUR);
const sta = local("JFK", minuteNow() + 14 * HOUR);
const booking = (serial: string) =>
  `FSU/13\n020-${serial}FRAJFK/T10K250.0\nBKD/LH400/${std.ddmmm}/FRAJFK/T10K250.0/S${std.hhmm}/S${sta.hhmm}\n`;
const fwb = (serial: string) =>
  `FWB/16\n020-${serial}FRAJFK/T10K250.0\nAGT//1234567/0001\n/ACME FORWARDING\n`;

type Created = { Id: string; Url: string; ExpiresAt: string };
const create = (hours: unknown, token = owner) =>
  call(stack.url, "POST", SHARE, { token, json: { ExpiresInHours: hours } });
/** The Url opens the app's share page (`/app/#/shared/<token>`); the page reads this JSON path. */
const pathOf = (url: string) => `/shared/routemap/${new URL(url).hash.replace("#/shared/", "")}`;

async function shareItems(): Promise<number> {
  const { Items = [] } = await db.send(
    new ScanCommand({
      TableName: TABLES.deliveries.id,
      FilterExpression: "begins_with(pk, :p)",
      ExpressionAttributeValues: { ":p": "SHARELINK" },
    }),
  );
  return Items.length;
}

beforeAll(async () => {
  stack = await startRunner();
  db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
  const carrier = tokens.carrier("020");
  for (const serial of ["12345675", "12345686"]) {
    for (const body of [booking(serial), fwb(serial)]) {
      const posted = await call(stack.url, "POST", "/carrier/messages", {
        token: carrier,
        body,
        contentType: "text/plain",
      });
      expect(posted.status, posted.text).toBe(200);
    }
  }
}, scaled(120_000));

afterAll(async () => {
  await stack?.stop();
});

describe("share links", () => {
  it("create, open signed out (that AWB only, no agent data), list, revoke, then 404", async () => {
    const created = await create(24);
    expect(created.status, created.text).toBe(201);
    const { Id, Url, ExpiresAt } = created.body as Created;
    expect(Url).toMatch(new RegExp(`^${stack.url}/app/#/shared/[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(ExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const opened = await call(stack.url, "GET", pathOf(Url));
    expect(opened.status, opened.text).toBe(200);
    const own = await call(stack.url, "GET", `/ffw/service/routemap/${AWB}`, { token: owner });
    expect(opened.body).toEqual(own.body);
    expect(opened.body).toMatchObject({ Shipment: { AirlinePrefix: "020", AwbNumber: "12345675" } });
    expect(opened.text).not.toMatch(/agent|cass|forwarder|ACMECARGO|0001"/i);
    expect(opened.text).not.toContain(OTHER_AWB.slice(3));
    expect(opened.headers.get("cache-control")).toBe("no-store");
    // Who shared it and until when, apart from the route map (onboarded without a Name: its id).
    const about = await call(stack.url, "GET", `${pathOf(Url)}/link`);
    expect(about.status, about.text).toBe(200);
    expect(about.body).toEqual({ SharedBy: "ACMECARGO", ExpiresAt });
    expect(about.headers.get("cache-control")).toBe("no-store");

    const listed = await call(stack.url, "GET", SHARE, { token: owner });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ Items: [{ Id, ExpiresAt, CreatedAt: expect.any(String) }] });
    expect(listed.text).not.toContain(pathOf(Url).split("/").at(-1));

    // Another forwarder: neither lists nor revokes it.
    expect((await call(stack.url, "GET", SHARE, { token: stranger })).status).toBe(404);
    expect((await call(stack.url, "DELETE", `${SHARE}/${Id}`, { token: stranger })).status).toBe(404);
    expect((await call(stack.url, "GET", pathOf(Url))).status).toBe(200);

    const revoked = await call(stack.url, "DELETE", `${SHARE}/${Id}`, { token: owner });
    expect(revoked.status).toBe(204);
    const gone = await call(stack.url, "GET", pathOf(Url));
    expect(gone.status).toBe(404);
    expect((await call(stack.url, "GET", `${pathOf(Url)}/link`)).status).toBe(404);
    expect(gone.headers.get("content-type")).toContain("application/problem+json");
    expect((await call(stack.url, "DELETE", `${SHARE}/${Id}`, { token: owner })).status).toBe(404);
    expect((await call(stack.url, "GET", SHARE, { token: owner })).body).toEqual({ Items: [] });
  });

  it("the same 404 for unknown and malformed tokens, signed out", async () => {
    for (const token of ["A".repeat(43), "nope", "A".repeat(200)]) {
      for (const path of [`/shared/routemap/${token}`, `/shared/routemap/${token}/link`]) {
        const response = await call(stack.url, "GET", path);
        expect(response.status, path).toBe(404);
        expect((response.body as { detail: string }).detail).toBe(
          "No such share link, or it has expired or been revoked.",
        );
      }
    }
  });

  it("refuses another forwarder's AWB with 404, writing nothing", async () => {
    const before = await shareItems();
    expect((await create(24, stranger)).status).toBe(404);
    expect(await shareItems()).toBe(before);
  });

  it('400 naming ExpiresInHours for 0, 721 and "x", writing nothing', async () => {
    const before = await shareItems();
    for (const value of [0, 721, "x"]) {
      const response = await create(value);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ errors: [{ field: "ExpiresInHours" }] });
    }
    expect(await shareItems()).toBe(before);
  });

  it("a one-hour link is 404 once the clock passes ExpiresAt", async () => {
    const created = await create(1);
    expect(created.status).toBe(201);
    const path = pathOf((created.body as Created).Url);
    expect((await call(stack.url, "GET", path)).status).toBe(200);
    const moved = await call(stack.url, "POST", "/__local/clock", {
      json: { advanceMs: 3600_000 + 60_000 },
      token: tokens.support(),
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await call(stack.url, "GET", path)).status).toBe(404);
    expect((await call(stack.url, "GET", SHARE, { token: owner })).body).toEqual({ Items: [] });
  });
});
