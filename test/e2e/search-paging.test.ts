/**
 * Search paging through the real local runner: the CreationDate sort pages straight from
 * the byReader index, by CurrentPage or by the NextCursor the answer carries; a Cursor the API did not
 * issue, or one sent with another search, is a 400 problem+json naming Cursor; the OpenAPI document
 * describes both members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMap } from "../../functions/core/route-map/spec-types.ts";
import { RouteMapSearchResultSchema } from "../../functions/http/schemas/route-maps.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { expectExactKeys, HOUR, local, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const carrier = tokens.carrier("020");
const SERIALS = ["22000016", "22000020", "22000031", "22000042", "22000053", "22000064", "22000075"];
const ORIGINS = ["HAJ", "MUC"];

interface Answer {
  TotalItems: number;
  TotalPages: number;
  PageSize: number;
  CurrentPage: number;
  TotalItemsExact: boolean;
  NextCursor: string | null;
  Items: RouteMap[];
}

const search = (json: Record<string, unknown>, query = "") =>
  call(stack.url, "POST", `/ffw/service/routemap${query}`, { token: owner, json });
const serialsOf = (body: unknown) => (body as Answer).Items.map((m) => m.Shipment.AwbNumber);

beforeAll(async () => {
  stack = await startRunner();
  // One route map at a time, so each has its own CreationDate (newest last); the index orders by it.
  for (const [i, serial] of SERIALS.entries()) {
    const origin = ORIGINS[i % 2] ?? "HAJ";
    const std = local(origin, minuteNow() + 24 * HOUR);
    const sta = local("JFK", minuteNow() + 32 * HOUR);
    const body =
      `FSU/13\n020-${serial}${origin}JFK/T5K100\nBKD/LH400/${std.ddmmm}/${origin}JFK/T5K100/S${std.hhmm}/S${sta.hhmm}\n\n` +
      `FWB/16\n020-${serial}${origin}JFK/T5K100\nAGT//1234567/0001\n`;
    const response = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      body,
      contentType: "text/plain",
    });
    expect(response.status, response.text).toBe(200);
    // CreationDate has whole seconds: a new second for the next one.
    await new Promise((resolve) => setTimeout(resolve, 1_050));
  }
}, scaled(120_000));

afterAll(async () => {
  await stack?.stop();
});

describe("search paging", () => {
  it("pages newest first by CurrentPage and by NextCursor alike; the last page has no NextCursor", async () => {
    const newestFirst = [...SERIALS].reverse();
    const first = await search({}, "?PageSize=3");
    expect(first.status, first.text).toBe(200);
    expectExactKeys(first.body, RouteMapSearchResultSchema as never);
    // Counted to the end of the next page: at least 6 (2 pages), so "Next page" is there.
    expect(first.body).toMatchObject({
      TotalItems: 6,
      TotalPages: 2,
      PageSize: 3,
      CurrentPage: 1,
      TotalItemsExact: false,
    });
    expect(serialsOf(first.body)).toEqual(newestFirst.slice(0, 3));

    const second = await search({}, "?CurrentPage=2&PageSize=3");
    expect(second.body).toMatchObject({ TotalItems: 7, TotalPages: 3, TotalItemsExact: true });
    const byNumber = [...serialsOf(first.body)];
    for (const page of [2, 3])
      byNumber.push(...serialsOf((await search({}, `?CurrentPage=${page}&PageSize=3`)).body));
    expect(byNumber).toEqual(newestFirst);

    const byCursor: string[] = [];
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const answer = await search(cursor ? { Cursor: cursor } : {}, "?PageSize=3");
      expect(answer.status, answer.text).toBe(200);
      const body = answer.body as Answer;
      pages.push(body.CurrentPage);
      byCursor.push(...serialsOf(body));
      cursor = body.NextCursor;
    } while (cursor);
    expect(byCursor).toEqual(newestFirst);
    expect(pages).toEqual([1, 2, 3]);

    const oldest = await search({ Sort: "+CreationDate", Origin: "MUC" }, "?PageSize=2");
    expect(serialsOf(oldest.body)).toEqual(SERIALS.filter((_, i) => i % 2 === 1).slice(0, 2));
    const next = await search(
      { Sort: "+CreationDate", Origin: "MUC", Cursor: (oldest.body as Answer).NextCursor },
      "?PageSize=2",
    );
    expect(serialsOf(next.body)).toEqual([SERIALS[5]]);
    expect(next.body).toMatchObject({
      CurrentPage: 2,
      NextCursor: null,
      TotalItems: 3,
      TotalItemsExact: true,
    });
  });

  it("answers 400 problem+json naming Cursor for a cursor it did not issue, of another search, or with another sort", async () => {
    const first = (await search({}, "?PageSize=3")).body as Answer;
    expect(first.NextCursor).not.toBeNull();
    for (const [body, query] of [
      [{ Cursor: "not-a-cursor" }, "?PageSize=3"],
      [{ Cursor: first.NextCursor, Origin: "HAJ" }, "?PageSize=3"],
      [{ Cursor: first.NextCursor }, "?PageSize=4"],
      [{ Cursor: first.NextCursor, Sort: "+Origin" }, "?PageSize=3"],
      [{ Cursor: "x".repeat(201) }, ""],
      [{ Cursor: 12 }, ""],
    ] as const) {
      const response = await search(body, query);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect((response.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
        "Cursor",
      ]);
    }
  });

  it("documents Cursor, NextCursor and TotalItemsExact in the OpenAPI document", async () => {
    const response = await call(stack.url, "GET", "/openapi.json");
    expect(response.status).toBe(200);
    const text = response.text;
    for (const member of ['"Cursor"', '"NextCursor"', '"TotalItemsExact"']) expect(text).toContain(member);
  });
});
