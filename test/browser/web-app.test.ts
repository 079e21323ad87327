/**
 * The forwarder's web app in a real headless Chromium, against the real local
 * runner seeded through its APIs (test/support/web-scenario.ts). One signed-in tab walks what an ops
 * desk does: sign in, sort and filter the shipments (refreshed every 60 s), find the late shipment
 * among the exceptions, open its 3-leg timeline, read a milestone's verdict and local times, look back
 * through its history, see a Missing milestone and a truck leg, share the map; disable and enable a
 * rule, create a rule and see the API's validation error on the field; replay a parked webhook
 * delivery. A signed-out visitor opens the share link (that AWB only, no agent), then sees "Link not
 * available" once it is revoked, and for an expired link. Every page is screenshotted at desktop and
 * 390 px phone width (test/artifacts/) and checked with axe-core (no serious or critical violation)
 * and for sideways scrolling. The app runs under its real CSP: a CSP refusal or an uncaught error in
 * a page fails the test that caused it. Pages are found by the UI contract's accessible names (roles,
 * labels), not by markup.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { capture as captureAll, launchBrowser, newPage } from "../support/browser.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import {
  ACME,
  acmeToken,
  bookShipment,
  digits,
  EARLY_RECEIPT_WORDS,
  flightHeading,
  LATE_AWB,
  LATE_DEPARTURE_WORDS,
  LATE_LEGS,
  MISSING_AWB,
  ON_TIME_AWB,
  ON_TIME_LEGS,
  OTHER,
  OTHER_AWB,
  seedWebScenario,
  type WebScenario,
  waitUntil,
} from "../support/web-scenario.ts";

/** Booked by the test while the shipments page is open: the 60-second refresh must bring it in. */
const LATER_AWB = "020-12345712";

let stack: RunningStack;
let scenario: WebScenario;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
/** The signed-out visitor of the share link: its own context, so no session of the signed-in tab. */
let visitor: { context: BrowserContext; page: Page; problems: string[] } | undefined;
let shareUrl = "";

/**
 * Screenshots and axe at both widths: a serious or critical violation, or a page that scrolls
 * sideways, fails the test (softly: it walks on, so one page's finding does not hide the next step's).
 */
async function capture(where: Page, name: string): Promise<void> {
  expect
    .soft(
      await captureAll(where, name),
      `axe-core violations (serious/critical) or sideways scrolling on ${name}`,
    )
    .toBe("");
}
const appUrl = () => `${stack.url}/app/`;
const awbLink = (awb: string) => page.getByRole("link", { name: awb, exact: true });
const rowOf = (awb: string) => page.getByRole("row").filter({ has: awbLink(awb) });
/** A milestone of the timeline: the list item naming its code that says `text`. */
const milestoneItem = (where: Page | Locator, code: string, text: string | RegExp) =>
  where
    .getByRole("listitem")
    // The innermost item: a leg's own list item holds its milestones' items.
    .filter({ hasNot: where.getByRole("listitem") })
    .filter({ hasText: new RegExp(`\\b${code}\\b`) })
    .filter({ hasText: text });
/** "2026-03-14T13:41" → "13:41": the station-local clock the timeline prints. */
const clock = (local: string) => local.slice(11, 16);
/** The station's zone after the clock: FRA is CET in winter, CEST in summer. */
const FRA_ZONE = "CES?T";

beforeAll(async () => {
  // The browser first: a machine without Chromium fails here, before minutes of seeding.
  browser = await launchBrowser();
  stack = await startRunner();
  scenario = await seedWebScenario(stack);
  ({ context, page, problems } = await newPage(browser));
}, scaled(180_000));

afterAll(async () => {
  await visitor?.context.close();
  await context?.close();
  await browser?.close();
  await scenario?.stop();
  await stack?.stop();
});

afterEach(() => {
  // CSP refusals and uncaught errors of the signed-in tab, reported by the test that caused them.
  const seen = problems.splice(0);
  expect(seen, "console problems in the signed-in tab").toEqual([]);
});

describe("the web app in headless Chromium", { timeout: 90_000 }, () => {
  it("sign-in lists the onboarded forwarders; signing in shows the navigation", async () => {
    // The browser's timers under the test's control (time still flows): the 60 s refresh is fast-forwarded.
    await page.clock.install();
    await page.goto(appUrl());
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor();
    const asAcme = page.getByRole("button", { name: `Sign in as ${ACME.ForwarderId}` });
    await asAcme.waitFor();
    expect(await page.getByRole("button", { name: `Sign in as ${OTHER.ForwarderId}` }).isVisible()).toBe(
      true,
    );
    await capture(page, "sign-in");

    await asAcme.click();
    const nav = page.getByRole("navigation").filter({ has: page.getByRole("link", { name: "Alerts" }) });
    await nav.getByRole("link", { name: "Shipments", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
  });

  it("shipments: the forwarder's AWBs with status chips and the filters, never another forwarder's", async () => {
    await page.getByRole("heading", { name: "Shipments", exact: true }).waitFor();
    await awbLink(LATE_AWB).waitFor();
    // Statuses in words: OnAir reads "In transit".
    await expect.poll(() => rowOf(LATE_AWB).innerText()).toContain("In transit");
    expect(await rowOf(MISSING_AWB).innerText()).toContain("Accepted");
    expect(await rowOf(ON_TIME_AWB).innerText()).toContain("Booked");
    expect(await awbLink(OTHER_AWB).count()).toBe(0);
    expect(await page.content()).not.toContain(OTHER_AWB);
    // A label's text includes a select's options ("Status Any Booked …"): matched by how it starts.
    for (const filter of ["From", "To", "Status", "Origin", "Destination", "Carrier"])
      expect(await page.getByLabel(new RegExp(`^${filter}`)).count(), `filter ${filter}`).toBe(1);
    expect(await page.getByRole("button", { name: "Next page" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Previous page" }).count()).toBe(1);
    await capture(page, "shipments");

    // A filter narrows the table: status Booked leaves the on-time shipment only.
    await page.getByLabel(/^Status/).selectOption("Booked");
    await expect.poll(() => awbLink(LATE_AWB).count()).toBe(0);
    expect(await awbLink(ON_TIME_AWB).isVisible()).toBe(true);
    await page.getByLabel(/^Status/).selectOption({ index: 0 });
    await awbLink(LATE_AWB).waitFor();

    // Sortable column headers are buttons: AWB one way, then the other.
    const listed = () => page.getByRole("row").getByRole("link").allInnerTexts();
    // Rows are read only once the header says the new order and the table is no longer busy: the rows
    // of the previous order can look like an answer (CreationDate order here is AWB order too).
    const ascending = [LATE_AWB, MISSING_AWB, ON_TIME_AWB];
    const sortButton = page.getByRole("button", { name: "AWB", exact: true });
    const awbHeader = page.getByRole("columnheader").filter({ has: sortButton });
    const table = page.getByRole("table");
    const sortedBy = async (direction: string) => {
      await expect.poll(() => awbHeader.getAttribute("aria-sort")).toBe(direction);
      await expect.poll(() => table.getAttribute("aria-busy")).toBe("false");
    };
    await sortButton.click();
    await expect.poll(() => awbHeader.getAttribute("aria-sort")).not.toBe("none");
    const firstDirection = (await awbHeader.getAttribute("aria-sort")) ?? "";
    await sortedBy(firstDirection);
    const first = await listed();
    expect(first).toEqual(firstDirection === "ascending" ? ascending : [...ascending].reverse());
    await sortButton.click();
    await sortedBy(firstDirection === "ascending" ? "descending" : "ascending");
    expect(await listed()).toEqual([...first].reverse());
  });

  it("shipments refresh every 60 s: a shipment booked meanwhile appears without a reload", async () => {
    const n = Math.floor(Date.now() / 60_000) * 60_000;
    await bookShipment(stack, LATER_AWB, ACME, ON_TIME_LEGS(n).slice(1));
    await page.waitForTimeout(500);
    expect(await awbLink(LATER_AWB).count()).toBe(0);
    await page.clock.fastForward(60_000);
    await awbLink(LATER_AWB).waitFor({ timeout: 15_000 });
  });

  it("exceptions: the late and the missing shipment, not the one on plan", async () => {
    await page.getByRole("button", { name: "Exceptions", exact: true }).click();
    await expect.poll(() => awbLink(ON_TIME_AWB).count()).toBe(0);
    await awbLink(LATE_AWB).waitFor();
    expect(await awbLink(MISSING_AWB).isVisible()).toBe(true);
    expect(await rowOf(MISSING_AWB).innerText()).toMatch(/Missing/);
    expect(await rowOf(LATE_AWB).innerText()).toMatch(/Ko/);
    await capture(page, "exceptions");
  });

  it("route map: the 3-leg timeline, the late departure's verdict and local times with zone", async () => {
    await awbLink(LATE_AWB).click();
    expect(page.url()).toContain(`#/routemap/${digits(LATE_AWB)}`);
    await page.getByRole("heading", { name: `Route map ${LATE_AWB}` }).waitFor();
    await page.getByRole("heading", { name: "Origin", exact: true }).waitFor();
    for (const leg of LATE_LEGS)
      expect(
        await page.getByRole("heading", { name: flightHeading(leg) }).isVisible(),
        flightHeading(leg),
      ).toBe(true);
    expect(await page.getByRole("heading", { name: "Destination", exact: true }).isVisible()).toBe(true);

    const departure = milestoneItem(page, "DEP", LATE_DEPARTURE_WORDS);
    await departure.waitFor();
    const text = await departure.innerText();
    expect(text).toMatch(/\bKo\b/);
    const { plannedLocal, actualLocal } = scenario.lateDeparture;
    expect(text).toMatch(new RegExp(`${clock(plannedLocal)} ${FRA_ZONE}`));
    expect(text).toMatch(new RegExp(`${clock(actualLocal)} ${FRA_ZONE}`));
    // It sits in LH400's section, not in another leg's.
    const firstLeg = page.getByRole("region", { name: flightHeading(LATE_LEGS[0]) });
    expect(await milestoneItem(firstLeg, "DEP", LATE_DEPARTURE_WORDS).count()).toBe(1);
    const receipt = milestoneItem(page, "RCS", EARLY_RECEIPT_WORDS);
    expect(await receipt.innerText()).toMatch(/\bOk\b/);
    await capture(page, "route-map");
  });

  it("history: the map as of the booking, and what changed since", async () => {
    const asOf = page.getByLabel(/^As of/);
    const oldest = (await asOf.locator("option").count()) - 1;
    expect(oldest).toBeGreaterThanOrEqual(4); // now + BKD, FWB, RCS, DEP snapshots
    await asOf.selectOption({ index: oldest });
    // As booked, LH400 had not departed: no verdict on its DEP.
    await expect.poll(() => milestoneItem(page, "DEP", LATE_DEPARTURE_WORDS).count()).toBe(0);
    const compare = page.getByLabel(/^Compare with/);
    await compare.selectOption({ label: "Now (current)" });
    const change = (text: string) => page.getByRole("listitem").filter({ hasText: text });
    await change("Status Booked → In transit").waitFor();
    expect(
      await change(`${flightHeading(LATE_LEGS[0])} · Departed (DEP)`)
        .first()
        .innerText(),
    ).toMatch(/→ Ko/);
    await capture(page, "history-compare");
    await asOf.selectOption({ index: 0 });
    await compare.selectOption({ index: 0 });
    await milestoneItem(page, "DEP", LATE_DEPARTURE_WORDS).waitFor();
  });

  it("other route maps: a departure reads Missing; a truck feeder is marked Truck", async () => {
    await page.goto(`${appUrl()}#/routemap/${digits(MISSING_AWB)}`);
    await page.getByRole("heading", { name: `Route map ${MISSING_AWB}` }).waitFor();
    const departure = milestoneItem(page, "DEP", /\bMissing\b/);
    await departure.waitFor();
    expect(await departure.innerText()).not.toMatch(/(after|before|on) (schedule|plan)/);

    await page.goto(`${appUrl()}#/routemap/${digits(ON_TIME_AWB)}`);
    await page.getByRole("heading", { name: `Route map ${ON_TIME_AWB}` }).waitFor();
    await page.getByRole("heading", { name: /^Truck LH9350 HAJ → FRA/ }).waitFor();
    expect(await page.getByRole("heading", { name: /^LH406 FRA → JFK/ }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: /Truck LH406/ }).count()).toBe(0);
  });

  it("share: the dialog creates a link for this AWB and lists it with Revoke", async () => {
    await page.goto(`${appUrl()}#/routemap/${digits(LATE_AWB)}`);
    await page.getByRole("heading", { name: `Route map ${LATE_AWB}` }).waitFor();
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Expires in hours").fill("2");
    await dialog.getByRole("button", { name: "Create link" }).click();
    const link = dialog.getByLabel("Share link");
    await link.waitFor();
    shareUrl = await link.inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${stack.url}/app/#/shared/[A-Za-z0-9_-]{43}$`));
    expect(await link.getAttribute("readonly")).not.toBeNull();
    await dialog.getByRole("button", { name: "Revoke" }).first().waitFor();
    expect(await dialog.getByRole("button", { name: "Revoke" }).count()).toBe(1);
    await capture(page, "share-dialog");
  });

  it("the share link opens signed out: that AWB's timeline only, no agent, no navigation", async () => {
    visitor = await newPage(browser);
    const shared = visitor.page;
    await shared.goto(shareUrl);
    await shared.getByRole("heading", { name: `Route map ${LATE_AWB}` }).waitFor();
    for (const leg of LATE_LEGS) await shared.getByRole("heading", { name: flightHeading(leg) }).waitFor();
    await milestoneItem(shared, "DEP", LATE_DEPARTURE_WORDS).waitFor();
    for (const name of ["Shipments", "Alerts"])
      expect(await shared.getByRole("link", { name, exact: true }).count(), name).toBe(0);
    for (const name of ["Share", "Sign out"])
      expect(await shared.getByRole("button", { name, exact: true }).count(), name).toBe(0);
    // It names who shared it (by name) and until when.
    const sharedBy = await shared.getByText(/^Shared by /).innerText();
    expect(sharedBy).toMatch(
      new RegExp(`^Shared by ${ACME.Name} · this link works until \\d{1,2} \\w{3} \\d\\d:\\d\\d UTC$`),
    );
    const html = await shared.content();
    for (const secret of [ACME.ForwarderId, ACME.AgentCode, OTHER_AWB, MISSING_AWB, ON_TIME_AWB, LATER_AWB])
      expect(html, `the shared page shows ${secret}`).not.toContain(secret);
    expect(html).not.toMatch(/agent|cass/i);
    await capture(shared, "shared");
    expect(visitor.problems).toEqual([]);
  });

  it("revoked: the share link's page says Link not available, and its API answers 404", async () => {
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Revoke" }).count()).toBe(0);
    const token = shareUrl.split("#/shared/")[1] ?? "";
    expect((await call(stack.url, "GET", `/shared/routemap/${token}`)).status).toBe(404);
    await capture(page, "share-dialog-revoked");
    await dialog.getByRole("button", { name: "Close" }).click();

    if (!visitor) throw new Error("the signed-out visitor did not open the link");
    await visitor.page.reload();
    await visitor.page.getByRole("heading", { name: "Link not available" }).waitFor();
    expect(await visitor.page.getByText(digits(LATE_AWB).slice(3)).count()).toBe(0);
    await capture(visitor.page, "shared-revoked");
    // Unknown links look the same.
    await visitor.page.goto(`${appUrl()}#/shared/${"A".repeat(43)}`);
    await visitor.page.getByRole("heading", { name: "Link not available" }).waitFor();
    expect(visitor.problems).toEqual([]);
  });

  it("expired: a one-hour link works, then says Link not available once the runner's clock passes it", async () => {
    const created = await call(stack.url, "POST", `/ffw/service/routemap/${digits(LATE_AWB)}/share`, {
      token: acmeToken(),
      json: { ExpiresInHours: 1 },
    });
    expect(created.status, created.text).toBe(201);
    // A fresh signed-out visitor (its own context): a new document for the new link.
    const expiring = await newPage(browser);
    try {
      await expiring.page.goto((created.body as { Url: string }).Url);
      await expiring.page.getByRole("heading", { name: `Route map ${LATE_AWB}` }).waitFor();
      const moved = await call(stack.url, "POST", "/__local/clock", {
        token: tokens.support(),
        json: { advanceMs: 61 * 60_000 },
      });
      expect(moved.status, moved.text).toBe(200);
      await expiring.page.reload();
      await expiring.page.getByRole("heading", { name: "Link not available" }).waitFor();
      expect(await expiring.page.getByRole("heading", { name: `Route map ${LATE_AWB}` }).count()).toBe(0);
      expect(expiring.problems).toEqual([]);
    } finally {
      await expiring.context.close();
    }
  });

  it("alerts: rules, webhooks and customer endpoints", async () => {
    await page.getByRole("link", { name: "Alerts", exact: true }).click();
    await page.getByRole("heading", { name: "Alerts", exact: true }).waitFor();
    for (const section of ["Rules", "Webhooks", "Customer endpoints"])
      await page.getByRole("heading", { name: section, exact: true }).waitFor();
    await page.getByText("ops@acme.example").first().waitFor();
    await page.getByText(`${scenario.receiver.url}${scenario.hookPath}`).first().waitFor();
    await page.getByText(`${scenario.receiver.url}/acme/customer`).first().waitFor();
    for (const button of ["New rule", "New webhook"])
      expect(await page.getByRole("button", { name: button }).count(), button).toBe(1);
    await capture(page, "alerts");

    // Disable, then enable the rule from its row; the API agrees each time.
    const rule = page.getByRole("row").filter({ hasText: "ops@acme.example" });
    const enabled = async () =>
      (
        (
          await call(stack.url, "GET", `/ffw/service/routemap/eventconfignotifier/${scenario.ruleId}`, {
            token: acmeToken(),
          })
        ).body as { Enabled: boolean }
      ).Enabled;
    await rule.getByRole("button", { name: "Disable" }).click();
    await rule.getByRole("button", { name: "Enable" }).waitFor();
    expect(await enabled()).toBe(false);
    await rule.getByRole("button", { name: "Enable" }).click();
    await rule.getByRole("button", { name: "Disable" }).waitFor();
    expect(await enabled()).toBe(true);
  });

  it("a new rule with a bad HeaderItems shows the API's error on that field, and saves nothing", async () => {
    const rulesBefore = await call(stack.url, "GET", "/ffw/service/routemap/eventconfignotifier", {
      token: acmeToken(),
    });
    await page.getByRole("button", { name: "New rule" }).click();
    await page.getByLabel(/^Notify ?To$/i).fill("desk@acme.example");
    const headerItems = page.getByLabel(/^Header ?Items$/i);
    await headerItems.fill("AWB,XYZ");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => headerItems.getAttribute("aria-invalid")).toBe("true");
    // The API's own message (problem+json errors[].message) is what describes the field.
    const describedBy = ((await headerItems.getAttribute("aria-describedby")) ?? "")
      .split(" ")
      .filter(Boolean);
    const descriptions = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).innerText()));
    expect(descriptions.join(" ")).toContain("unknown value(s) XYZ");
    // Only that field: the address was fine.
    expect(await page.getByLabel(/^Notify ?To$/i).getAttribute("aria-invalid")).toBeNull();
    const rulesAfter = await call(stack.url, "GET", "/ffw/service/routemap/eventconfignotifier", {
      token: acmeToken(),
    });
    expect(rulesAfter.text).toBe(rulesBefore.text);
    await capture(page, "rule-form-error");
  });

  it("the delivery log shows the parked webhook delivery; Replay delivers it", async () => {
    await page.goto(`${appUrl()}#/alerts`);
    const hookUrl = `${scenario.receiver.url}${scenario.hookPath}`;
    const webhook = page.getByRole("listitem").or(page.getByRole("row")).filter({ hasText: hookUrl }).first();
    await webhook.getByRole("button", { name: "Deliveries" }).click();
    // The log: the innermost region holding a table with an Outcome column (the Webhooks section holds it).
    const log = page
      .getByRole("region")
      .filter({ has: page.getByRole("columnheader", { name: "Outcome" }) })
      .filter({ hasNot: page.getByRole("region") });
    for (const column of ["Outcome", "Attempts", "Response status"])
      await log.getByRole("columnheader", { name: column }).waitFor();
    const parked = log.getByRole("row").filter({ hasText: /parked/i });
    await parked.waitFor();
    expect(await parked.innerText()).toContain("400");
    await capture(page, "delivery-log");

    await parked.getByRole("button", { name: "Replay" }).click();
    await waitUntil(
      async () => scenario.receiver.postsTo(scenario.hookPath).length >= 2,
      "the replayed POST at the receiver",
    );
    // The log shows the outcome once the replayed attempt is recorded: its Reload button reads it again.
    await waitUntil(async () => {
      await log.getByRole("button", { name: "Reload" }).click();
      await log.getByRole("columnheader", { name: "Outcome" }).waitFor();
      return (
        (await log
          .getByRole("row")
          .filter({ hasText: /delivered/i })
          .count()) > 0
      );
    }, "the delivery log to show the replayed delivery delivered");
    expect(
      await log
        .getByRole("row")
        .filter({ hasText: /delivered/i })
        .innerText(),
    ).toContain("204");
    await capture(page, "delivery-log-replayed");
  });

  it("sign out returns to the sign-in page", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Alerts", exact: true }).count()).toBe(0);
  });
});
