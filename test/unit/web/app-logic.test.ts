/** The app's search body and sort, hash routes, and rule/webhook forms ↔ API bodies. */
import { describe, expect, it } from "vitest";
import {
  type Delivery,
  deliveryOutcome,
  deliveryResponseStatus,
  NEW_RULE,
  type Rule,
  ruleAlertText,
  ruleBody,
  ruleSummary,
  ruleToForm,
  type Webhook,
  webhookBody,
  webhookToggled,
} from "../../../web/src/lib/alerts.ts";
import { parseHash, routeMapHash } from "../../../web/src/lib/hash-route.ts";
import { clampPage, DEFAULT_SORT, NO_FILTERS, nextSort, searchBody } from "../../../web/src/lib/search.ts";

describe("shipment search", () => {
  it("sends only the filters set, stations upper-case, dates as a CreationDate range, and the sort", () => {
    expect(searchBody(NO_FILTERS, DEFAULT_SORT)).toEqual({ Sort: "-CreationDate" });
    expect(
      searchBody(
        { from: "2026-03-01", to: "", status: "OnAir", origin: " fra", destination: "jfk", carrier: "020" },
        { field: "Origin", descending: false },
      ),
    ).toEqual({
      CreationDate: { From: "2026-03-01" },
      Status: ["OnAir"],
      Origin: "FRA",
      Destination: "JFK",
      AirlinePrefix: "020",
      Sort: "+Origin",
    });
  });

  it("a header click flips its column's direction, another column starts ascending", () => {
    const byAwb = nextSort(DEFAULT_SORT, "AwbNumber");
    expect(byAwb).toEqual({ field: "AwbNumber", descending: false });
    expect(nextSort(byAwb, "AwbNumber")).toEqual({ field: "AwbNumber", descending: true });
    expect(nextSort(byAwb, "CreationDate")).toEqual({ field: "CreationDate", descending: true });
    expect(clampPage(5, 2)).toBe(2);
    expect(clampPage(0, 0)).toBe(1);
  });
});

describe("hash routes", () => {
  it("reads the app's pages from the fragment", () => {
    expect(parseHash("")).toEqual({ page: "shipments" });
    expect(parseHash("#/shipments")).toEqual({ page: "shipments" });
    expect(parseHash("#/alerts")).toEqual({ page: "alerts" });
    expect(parseHash("#/routemap/020-12345675")).toEqual({ page: "routemap", awb: "02012345675" });
    expect(parseHash(routeMapHash("02012345675"))).toEqual({ page: "routemap", awb: "02012345675" });
    expect(parseHash("#/shared/abc_DEF-123")).toEqual({ page: "shared", token: "abc_DEF-123" });
    expect(parseHash("#/routemap/12345")).toEqual({ page: "not-found", hash: "#/routemap/12345" });
    expect(parseHash("#/shared/a b")).toEqual({ page: "not-found", hash: "#/shared/a b" });
  });
});

const rule: Rule = {
  Id: 7,
  ChannelType: "Email",
  NotifyTo: "ops@acme.example",
  HeaderItems: "AWB,MIL",
  FormatType: "Html",
  AirlinePrefix: "020",
  AwbNumber: "",
  Event: "DEP,ARR",
  EventAlert: false,
  MissedEventAlert: false,
  ProActiveAlert: true,
  ProActiveTime: 30,
  Destination: null,
  Origin: "FRA",
  Enabled: true,
  ShareLinkHours: 48,
};

describe("rule forms", () => {
  it("a rule round-trips through its form", () => {
    const { Id: _id, ...body } = rule;
    expect(ruleBody(ruleToForm(rule))).toEqual({ ...body, Destination: "" });
  });

  it("trims, upper-cases stations and events, and leaves a non-number ProActiveTime for the API to name", () => {
    const body = ruleBody({
      ...NEW_RULE,
      NotifyTo: " a@b.example ",
      Event: "dep",
      Origin: "fra",
      ProActiveTime: "soon",
    });
    expect(body).toMatchObject({
      NotifyTo: "a@b.example",
      Event: "DEP",
      Origin: "FRA",
      ProActiveTime: "soon",
    });
    expect(ruleBody({ ...NEW_RULE, ProActiveTime: "" }).ProActiveTime).toBe(0);
    expect(ruleAlertText(rule)).toBe("if not reported 30 min after plan");
    expect(ruleAlertText({ ...rule, ProActiveTime: 240 })).toBe("if not reported 4 h after plan");
    expect(ruleAlertText({ ...rule, ProActiveAlert: false, MissedEventAlert: true })).toBe("when missed");
  });
});

describe("rule share-link hours", () => {
  it("an edited rule sends its ShareLinkHours back (a PUT replaces the whole rule)", () => {
    expect(ruleToForm(rule).ShareLinkHours).toBe("48");
    expect(ruleBody(ruleToForm(rule)).ShareLinkHours).toBe(48);
    expect(ruleBody(ruleToForm({ ...rule, ShareLinkHours: null })).ShareLinkHours).toBeNull();
    expect(ruleBody({ ...NEW_RULE }).ShareLinkHours).toBeNull();
    // Not a number: sent as typed, so the API names the field.
    expect(ruleBody({ ...NEW_RULE, ShareLinkHours: "two" }).ShareLinkHours).toBe("two");
  });
});

describe("rule summaries in words", () => {
  it("names the events, the carriers and the filters", () => {
    expect(ruleSummary({ ...rule, AirlinePrefix: "*", Origin: null })).toBe("DEP, ARR · all carriers");
    expect(ruleSummary(rule)).toBe("DEP, ARR · carrier 020 · from FRA");
    expect(
      ruleSummary({ ...rule, Event: "NFD", AwbNumber: "12345675", Origin: "", Destination: "JFK" }),
    ).toBe("NFD · carrier 020 · AWB 020-12345675 · to JFK");
  });
});

describe("webhook forms", () => {
  const webhook: Webhook = {
    Id: 3,
    Event: "DEP",
    Url: "https://hooks.example/in",
    Token: "****abcd",
    Enabled: true,
    Type: "json",
    Psk: null,
    AWB: null,
    Verified: false,
    LastVerification: null,
  };

  it("Enable/Disable resends the webhook with its masked secrets (kept by the API) and the new switch", () => {
    expect(webhookToggled(webhook, false)).toEqual({
      Event: "DEP",
      Url: "https://hooks.example/in",
      Type: "json",
      AWB: "",
      Token: "****abcd",
      Psk: null,
      Enable: false,
    });
  });

  it("empty secrets are none", () => {
    expect(
      webhookBody({
        Event: "arr",
        Url: " https://x.example ",
        Type: "xml",
        Token: "",
        Psk: " ",
        Enable: true,
      }),
    ).toEqual({
      Event: "ARR",
      Url: "https://x.example",
      Type: "xml",
      AWB: "",
      Token: null,
      Psk: null,
      Enable: true,
    });
  });
});

describe("delivery log", () => {
  const delivery = (attempts: Delivery["Attempts"]): Delivery => ({
    DeliveryId: "d1",
    Event: "DEP",
    Type: "FSU",
    AwbNumber: "020-12345675",
    Status: attempts.length ? "parked" : "pending",
    CreatedAt: "2026-03-14T13:00:00Z",
    UpdatedAt: "2026-03-14T13:05:00Z",
    Attempts: attempts,
  });
  const attempt = (outcome: Delivery["Attempts"][number]["Outcome"], status: number | null) => ({
    Attempt: 1,
    At: "2026-03-14T13:00:00Z",
    HttpStatus: status,
    Outcome: outcome,
    Detail: "",
    NextAttemptAt: null,
  });

  it("shows the last attempt's outcome and response status", () => {
    expect(deliveryOutcome(delivery([attempt("retry", 503), attempt("parked", null)]))).toBe("parked");
    expect(deliveryResponseStatus(delivery([attempt("retry", 503), attempt("parked", null)]))).toBe("none");
    expect(deliveryResponseStatus(delivery([attempt("delivered", 200)]))).toBe("200");
    expect(deliveryOutcome(delivery([]))).toBe("pending");
    expect(deliveryResponseStatus(delivery([]))).toBe("—");
  });
});
