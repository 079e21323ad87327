/**
 * Issue 12 point 3 through the real local runner: support links people who sign in to the web app to
 * a forwarder (Cognito users in AWS; generated ids and no mail locally), lists and removes them. One
 * sign-in per e-mail address (whatever its case); bad input is a 400 naming the field with nothing
 * written; only support may call these routes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

let stack: RunningStack;
const support = () => tokens.support();
const USERS = "/support/forwarders/FWDUSERSX/users";

beforeAll(async () => {
  stack = await startRunner();
  const onboarded = await call(stack.url, "POST", "/support/forwarders", {
    token: support(),
    json: {
      ForwarderId: "FWDUSERSX",
      AgentCode: "7654321",
      AgentCass: "0042",
      AgentStation: "FRA",
      ContactEmail: "it@fwdusers.example",
    },
  });
  expect(onboarded.status, onboarded.text).toBe(201);
}, scaled(120_000));

afterAll(async () => {
  await stack?.stop();
});

const problemOf = (answer: { body: unknown }) =>
  answer.body as { status: number; errors: Array<{ field: string; message: string }> };

const listed = async () => {
  const answer = await call(stack.url, "GET", USERS, { token: support() });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { Items: Array<Record<string, string>> }).Items;
};

describe("people who sign in for a forwarder", () => {
  it("are created (201), listed oldest first and removed (200, then 404)", async () => {
    const anna = await call(stack.url, "POST", USERS, {
      token: support(),
      json: { Email: "  Anna.Meier@FWDUsers.example " },
    });
    expect(anna.status, anna.text).toBe(201);
    const created = anna.body as Record<string, string>;
    expect(created).toEqual({
      UserId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      Email: "anna.meier@fwdusers.example",
      ForwarderId: "FWDUSERSX",
      CreatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const ben = await call(stack.url, "POST", USERS, {
      token: support(),
      json: { Email: "ben@fwdusers.example" },
    });
    expect(ben.status, ben.text).toBe(201);
    const benId = (ben.body as Record<string, string>).UserId;

    expect((await listed()).map((user) => user.Email)).toEqual([
      "anna.meier@fwdusers.example",
      "ben@fwdusers.example",
    ]);

    const removed = await call(stack.url, "DELETE", `${USERS}/${benId}`, { token: support() });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ UserId: benId, Email: "ben@fwdusers.example" });
    expect((await listed()).map((user) => user.Email)).toEqual(["anna.meier@fwdusers.example"]);
    const again = await call(stack.url, "DELETE", `${USERS}/${benId}`, { token: support() });
    expect(again.status).toBe(404);
    expect(again.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("allow one sign-in per e-mail address, whatever its case (409), and the address is free again after removal", async () => {
    const first = await call(stack.url, "POST", USERS, {
      token: support(),
      json: { Email: "carla@fwdusers.example" },
    });
    expect(first.status, first.text).toBe(201);
    const before = await listed();
    const twice = await call(stack.url, "POST", USERS, {
      token: support(),
      json: { Email: "CARLA@fwdusers.example" },
    });
    expect(twice.status, twice.text).toBe(409);
    expect(await listed()).toEqual(before);
    const id = (first.body as Record<string, string>).UserId;
    expect((await call(stack.url, "DELETE", `${USERS}/${id}`, { token: support() })).status).toBe(200);
    const back = await call(stack.url, "POST", USERS, {
      token: support(),
      json: { Email: "carla@fwdusers.example" },
    });
    expect(back.status, back.text).toBe(201);
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const before = await listed();
    for (const body of [
      {},
      { Email: "" },
      { Email: "not-an-address" },
      { Email: 42 },
      { Email: `${"a".repeat(250)}@x.example` },
    ]) {
      const answer = await call(stack.url, "POST", USERS, { token: support(), json: body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(problemOf(answer).errors.map((error) => error.field)).toContain("Email");
    }
    const badId = await call(stack.url, "DELETE", `${USERS}/${encodeURIComponent("x/../y")}`, {
      token: support(),
    });
    expect(badId.status).toBeGreaterThanOrEqual(400);
    expect(badId.status).toBeLessThan(500);
    expect(await listed()).toEqual(before);
  });

  it("answers 404 for a forwarder never onboarded, and for a user of another forwarder", async () => {
    const unknown = "/support/forwarders/NOSUCHFWD/users";
    expect(
      (await call(stack.url, "POST", unknown, { token: support(), json: { Email: "x@y.example" } })).status,
    ).toBe(404);
    expect((await call(stack.url, "GET", unknown, { token: support() })).status).toBe(404);
    const [someone] = await listed();
    const elsewhere = await call(stack.url, "DELETE", `${unknown}/${someone?.UserId}`, { token: support() });
    expect(elsewhere.status).toBe(404);
    expect((await listed()).map((user) => user.UserId)).toContain(someone?.UserId);
  });

  it("are support's business only", async () => {
    for (const token of [tokens.forwarder("FWDUSERSX", "7654321", "0042"), tokens.carrier()]) {
      expect((await call(stack.url, "GET", USERS, { token })).status).toBe(403);
      expect(
        (await call(stack.url, "POST", USERS, { token, json: { Email: "x@fwdusers.example" } })).status,
      ).toBe(403);
    }
    expect((await call(stack.url, "GET", USERS)).status).toBe(401);
  });
});
