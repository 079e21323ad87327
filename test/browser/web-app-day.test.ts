/**
 * The app for a forwarder's whole day, in headless Chromium against the real local runner, at
 * 1280 px and at a 390 px phone width: the AWB lookup from every page, the verdict words (a DEP 15 min
 * after STD, a DEP 70 min after STD, an ARR 30 min before STA, an NFD 2 h after plan) on the route map
 * and on its shared page, milestone names with codes, status words, what each shipment expects next,
 * one 24-hour time format with zones, the history's changes in the timeline's station-local form,
 * rule summaries in words, a rule edit that keeps its share-link hours, the CSV export of the whole
 * list, and the e-mail confirmation page in the app's look (confirming sends the alerts held for the
 * address). Every page is screenshotted at both widths (test/artifacts/), checked with axe-core, for
 * sideways scrolling and for actions out of view at 390 px (test/support/browser.ts).
 */
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { capture as captureAll, DESKTOP, launchBrowser, newPage, PHONE } from "../support/browser.ts";
import { confirmationLinks } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import {
  ACME,
  acmeToken,
  carrierSettings,
  digits,
  flightHeading,
  LATE_AWB,
  MISSING_AWB,
  ON_TIME_AWB,
  OTHER,
  onboard,
  seedVerdictShipment,
  seedWebScenario,
  VERDICT_LEGS,
  VERDICT_WORDS,
  VERDICTS_AWB,
  type WebScenario,
  waitUntil,
} from "../support/web-scenario.ts";

const RULES = "/ffw/service/routemap/eventconfignotifier";
/** A well-formed AWB (its check digit is right) that nobody booked. */
const UNKNOWN_AWB = "020-99999992";

let stack: RunningStack;
let scenario: WebScenario;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
const others: Array<{ context: BrowserContext; problems: string[] }> = [];

async function capture(where: Page, name: string): Promise<void> {
  expect
    .soft(
      await captureAll(where, name),
      `axe-core violations (serious/critical), sideways scrolling or actions out of view on ${name}`,
    )
    .toBe("");
}
const appUrl = () => `${stack.url}/app/`;
const awbLink = (awb: string) => page.getByRole("link", { name: awb, exact: true });
const rowOf = (awb: string) => page.getByRole("row").filter({ has: awbLink(awb) });
const milestoneItem = (where: Page | Locator, code: string, text: string | RegExp) =>
  where
    .getByRole("listitem")
    .filter({ hasNot: where.getByRole("listitem") })
    .filter({ hasText: new RegExp(`\\b${code}\\b`) })
    .filter({ hasText: text });
/** FRA is CET in winter, CEST in summer; JFK EST/EDT; ORD CST/CDT. */
const ZONE = { FRA: "CES?T", JFK: "E[SD]T", ORD: "C[SD]T" } as const;

async function lookUp(text: string): Promise<void> {
  const field = page.getByRole("textbox", { name: "Find AWB" });
  await field.fill(text);
  await field.press("Enter");
}

/** The box of every button and link in `where` lies within the phone's width. */
async function allWithin(where: Locator, width: number): Promise<string[]> {
  const out: string[] = [];
  for (const action of await where.locator("a[href], button").all()) {
    const box = await action.boundingBox();
    if (!box) continue;
    if (box.x < 0 || box.x + box.width > width)
      out.push(`${await action.innerText()} (${box.x}-${box.x + box.width})`);
  }
  return out;
}

beforeAll(async () => {
  browser = await launchBrowser();
  stack = await startRunner();
  // The verdict shipment first, before the scenario's rule and webhook exist: it raises no alert.
  await onboard(stack, ACME, OTHER);
  await carrierSettings(stack);
  await seedVerdictShipment(stack);
  scenario = await seedWebScenario(stack);
  // The rule's e-mail link is a share link valid 48 h: the app's rule editor must keep that.
  const rule = await call(stack.url, "GET", `${RULES}/${scenario.ruleId}`, { token: acmeToken() });
  const put = await call(stack.url, "PUT", `${RULES}/${scenario.ruleId}`, {
    token: acmeToken(),
    json: { ...(rule.body as Record<string, unknown>), ShareLinkHours: 48 },
  });
  if (put.status !== 200) throw new Error(`setting ShareLinkHours: ${put.status} ${put.text}`);
  ({ context, page, problems } = await newPage(browser));
  await page.goto(appUrl());
  await page.getByRole("button", { name: `Sign in as ${ACME.ForwarderId}` }).click();
  await page.getByRole("heading", { name: "Shipments", exact: true }).waitFor();
}, scaled(240_000));

afterAll(async () => {
  for (const other of others) await other.context.close();
  await context?.close();
  await browser?.close();
  await scenario?.stop();
  await stack?.stop();
});

afterEach(() => {
  const seen = problems.splice(0);
  expect(seen, "console problems in the signed-in tab").toEqual([]);
});

describe("the app for a whole day, at 1280 px and 390 px", { timeout: 120_000 }, () => {
  it("shipments: statuses in words, what comes next and where, times in 24 hours with zones", async () => {
    await awbLink(VERDICTS_AWB).waitFor();
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      expect(await rowOf(VERDICTS_AWB).innerText()).toContain("At destination");
      expect(await rowOf(LATE_AWB).innerText()).toContain("In transit");
      const missing = await rowOf(MISSING_AWB).innerText();
      expect(missing).toMatch(
        new RegExp(`Departed \\(DEP\\) at FRA · \\d\\d:\\d\\d (${ZONE.FRA}|UTC\\+\\d+)`),
      );
      expect(missing).toContain("Missing");
      expect(await rowOf(ON_TIME_AWB).innerText()).toMatch(/Accepted \(RCS\) at HAJ/);
      // Ready for pick-up at ORD: the documents come next (an RCS never reported is behind it).
      expect(await rowOf(VERDICTS_AWB).innerText()).toMatch(
        new RegExp(`Documents delivered \\(AWD\\) at ORD · \\d\\d:\\d\\d (${ZONE.ORD}|UTC-\\d+)`),
      );
      const main = await page.getByRole("main").innerText();
      expect(main).toMatch(/Updated \d\d:\d\d UTC/);
      expect(main).toMatch(/\d{1,2} \w{3} \d\d:\d\d UTC/);
      expect(main).not.toMatch(/\b\d{1,2}:\d\d(:\d\d)? ?(AM|PM)\b/i);
    }
    // At 390 px each shipment is a card: its link and the sort buttons are all within the width.
    expect(await allWithin(page.getByRole("main"), PHONE.width)).toEqual([]);
    expect(await page.getByRole("button", { name: "AWB", exact: true }).isVisible()).toBe(true);
    await page.setViewportSize(DESKTOP);
    // Once the station zones are in, the next time reads with the station's own zone.
    await expect
      .poll(() => rowOf(MISSING_AWB).innerText())
      .toMatch(new RegExp(`at FRA · \\d\\d:\\d\\d ${ZONE.FRA}`));
    await capture(page, "shipments-day");
  });

  it("AWB lookup from every page: typed or pasted, with or without the dash; unknown and malformed said", async () => {
    const pages = ["#/shipments", "#/alerts", `#/routemap/${digits(LATE_AWB)}`];
    for (const [index, hash] of pages.entries()) {
      await page.setViewportSize(index % 2 === 0 ? DESKTOP : PHONE);
      await page.goto(`${appUrl()}${hash}`);
      await page.getByRole("textbox", { name: "Find AWB" }).waitFor();
      await lookUp(index === 1 ? digits(VERDICTS_AWB) : VERDICTS_AWB);
      await page.getByRole("heading", { name: `Route map ${VERDICTS_AWB}` }).waitFor();
      expect(page.url()).toContain(`#/routemap/${digits(VERDICTS_AWB)}`);
    }
    // Pasted: the whole text at once, spaces and all.
    await page.setViewportSize(DESKTOP);
    await page.getByRole("textbox", { name: "Find AWB" }).focus();
    await page.keyboard.insertText(` ${LATE_AWB} `);
    await page.getByRole("button", { name: "Go" }).click();
    await page.getByRole("heading", { name: `Route map ${LATE_AWB}` }).waitFor();

    await lookUp(UNKNOWN_AWB);
    await page.getByRole("heading", { name: `Route map ${UNKNOWN_AWB}` }).waitFor();
    await page.getByText(`No route map found for AWB ${UNKNOWN_AWB}`).waitFor();
    await capture(page, "awb-lookup-not-found");

    const before = page.url();
    await lookUp("020-12345670");
    const problem = page.getByRole("alert").filter({ hasText: "not a valid AWB" });
    await problem.waitFor();
    expect(await problem.innerText()).toBe("020-12345670 is not a valid AWB: its last digit should be 5.");
    expect(page.url()).toBe(before);
    await capture(page, "awb-lookup-invalid");
    await lookUp("12345");
    await page.getByRole("alert").filter({ hasText: "type 11 digits" }).waitFor();
  });

  it("verdicts state the facts, then the judgement; milestones by name and code", async () => {
    await page.goto(`${appUrl()}#/routemap/${digits(VERDICTS_AWB)}`);
    await page.getByRole("heading", { name: `Route map ${VERDICTS_AWB}` }).waitFor();
    const [first, second] = VERDICT_LEGS;
    const firstLeg = page.getByRole("region", { name: flightHeading(first) });
    const secondLeg = page.getByRole("region", { name: flightHeading(second) });
    const destination = page.getByRole("region", { name: "Destination", exact: true });
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const expected: Array<[Locator, string, string]> = [
        [firstLeg, "DEP", VERDICT_WORDS.firstDeparture],
        [firstLeg, "ARR", VERDICT_WORDS.firstArrival],
        [secondLeg, "DEP", VERDICT_WORDS.secondDeparture],
        [destination, "NFD", VERDICT_WORDS.readyForPickUp],
      ];
      for (const [where, code, words] of expected) {
        const item = milestoneItem(where, code, words);
        await item.waitFor();
        expect(await item.count(), `${code}: ${words}`).toBe(1);
      }
      expect(await milestoneItem(firstLeg, "DEP", "Departed (DEP)").count()).toBe(1);
      expect(await milestoneItem(destination, "NFD", "Ready for pick-up (NFD)").count()).toBe(1);
      expect(await page.getByRole("main").innerText()).toContain("At destination");
    }
    await page.setViewportSize(DESKTOP);
    await capture(page, "route-map-verdicts");

    // The shared page says the same words, who shared it and until when.
    const created = await call(stack.url, "POST", `/ffw/service/routemap/${digits(VERDICTS_AWB)}/share`, {
      token: acmeToken(),
      json: { ExpiresInHours: 24 },
    });
    expect(created.status, created.text).toBe(201);
    const visitor = await newPage(browser);
    others.push(visitor);
    await visitor.page.goto((created.body as { Url: string }).Url);
    await visitor.page.getByRole("heading", { name: `Route map ${VERDICTS_AWB}` }).waitFor();
    for (const words of Object.values(VERDICT_WORDS))
      expect(await visitor.page.getByText(words).count(), words).toBe(1);
    const expiry = (created.body as { ExpiresAt: string }).ExpiresAt;
    const day = `${Number(expiry.slice(8, 10))} ${new Date(expiry).toUTCString().slice(8, 11)} ${expiry.slice(11, 16)} UTC`;
    expect(await visitor.page.getByText(/^Shared by /).innerText()).toBe(
      `Shared by ${ACME.Name} · this link works until ${day}`,
    );
    await capture(visitor.page, "shared-verdicts");
    expect(visitor.problems).toEqual([]);
  });

  it("history: what changed, in the timeline's station-local form", async () => {
    await page.goto(`${appUrl()}#/routemap/${digits(VERDICTS_AWB)}`);
    const asOf = page.getByLabel(/^As of/);
    await asOf.waitFor();
    await asOf.selectOption({ index: (await asOf.locator("option").count()) - 1 });
    await page.getByLabel(/^Compare with/).selectOption({ label: "Now (current)" });
    const changes = page.getByRole("list").filter({ has: page.getByText(/^Status /) });
    await changes.waitFor();
    const text = await changes.innerText();
    expect(text).toContain("Status Booked → At destination");
    expect(text).toMatch(
      new RegExp(
        `${flightHeading(VERDICT_LEGS[0])} · Departed \\(DEP\\): actual none → \\d\\d:\\d\\d ${ZONE.FRA}, \\d{1,2} \\w{3}`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `Ready for pick-up \\(NFD\\) at ORD: actual none → \\d\\d:\\d\\d ${ZONE.ORD}, \\d{1,2} \\w{3}`,
      ),
    );
    // No zone-less ISO times anywhere.
    expect(text).not.toMatch(/\d{4}-\d\d-\d\d/);
    await capture(page, "history-diff");
  });

  it("alerts: rules in words; editing a rule keeps its share-link hours; every action in view at 390 px", async () => {
    await page.goto(`${appUrl()}#/alerts`);
    const rule = page.getByRole("row").filter({ hasText: "ops@acme.example" });
    await rule.waitFor();
    expect(await rule.innerText()).toContain("DEP · all carriers");
    expect(await rule.innerText()).toContain("when missed");
    await page.setViewportSize(PHONE);
    for (const name of ["Edit", "Disable", "Deliveries", "Delete"]) {
      const box = await rule.getByRole("button", { name, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, `${name} within 390 px`).toBe(true);
    }
    expect(await allWithin(page.getByRole("main"), PHONE.width)).toEqual([]);
    await page.setViewportSize(DESKTOP);

    await rule.getByRole("button", { name: "Edit", exact: true }).click();
    const hours = page.getByLabel(/^Share ?Link ?Hours$/i);
    expect(await hours.inputValue()).toBe("48");
    await capture(page, "rule-editor");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText(`Rule ${scenario.ruleId} saved.`).waitFor();
    const saved = await call(stack.url, "GET", `${RULES}/${scenario.ruleId}`, { token: acmeToken() });
    expect((saved.body as { ShareLinkHours: number | null }).ShareLinkHours).toBe(48);
  });

  it("exports the whole shipment list as CSV, at both widths", async () => {
    await page.goto(`${appUrl()}#/shipments`);
    await awbLink(VERDICTS_AWB).waitFor();
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export CSV" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^shipments-\d{4}-\d\d-\d\dT\d{4}Z\.csv$/);
      const csv = readFileSync(await download.path(), "utf8");
      const lines = csv.trimEnd().split("\r\n");
      expect(lines[0]).toBe(
        "AWB,Status,Origin,Destination,Legs,Exceptions,Next milestone,Next station,Next planned (UTC),Next planned (station local),Created (UTC),Last update (UTC)",
      );
      const awbs = lines.slice(1).map((line) => line.split(",")[0]);
      expect(awbs.sort()).toEqual([LATE_AWB, MISSING_AWB, ON_TIME_AWB, VERDICTS_AWB].sort());
      expect(lines.find((line) => line.startsWith(VERDICTS_AWB))).toContain(",At destination,FRA,ORD,");
      expect(lines.find((line) => line.startsWith(MISSING_AWB))).toContain(",Departed (DEP),FRA,");
      await page
        .getByRole("status")
        .filter({ hasText: /^Exported 4 shipments at \d\d:\d\d UTC/ })
        .waitFor();
    }
    await page.setViewportSize(DESKTOP);
    await capture(page, "csv-export");
  });

  it("the e-mail confirmation page looks like the app; confirming sends the alert held meanwhile", async () => {
    const [link] = await confirmationLinks(stack.sesUrl, "ops@acme.example");
    if (!link) throw new Error("no confirmation link mailed to ops@acme.example");
    const missedSubject = `AWB ${MISSING_AWB} | MIL DEP | NTF Missed`;
    const mailed = async () => {
      const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as {
        emails: Array<{ subject: string; destination: { to: string[] } }>;
      };
      return store.emails.filter(
        (email) => email.subject === missedSubject && email.destination.to.includes("ops@acme.example"),
      );
    };
    expect(await mailed()).toEqual([]);
    const visitor = await newPage(browser);
    others.push(visitor);
    await visitor.page.goto(link);
    await visitor.page.getByRole("heading", { name: "Confirm shipment alerts" }).waitFor();
    expect(await visitor.page.getByText(ACME.ForwarderId).count()).toBeGreaterThan(0);
    await capture(visitor.page, "email-confirmation");
    await visitor.page.getByRole("button", { name: "Confirm" }).click();
    await visitor.page.getByRole("heading", { name: "Address confirmed" }).waitFor();
    expect(await visitor.page.getByText(/alerts? held while the address waited/).innerText()).toMatch(
      /^\d+ alerts? held while the address waited for this confirmation (is|are) on (its|their) way now\.$/,
    );
    const confirmedAt = Date.now();
    await capture(visitor.page, "email-confirmation-done");
    await waitUntil(async () => (await mailed()).length > 0, "the held Missed alert mailed", 60_000);
    expect(Date.now() - confirmedAt).toBeLessThan(60_000);
    expect(visitor.problems).toEqual([]);
  });
});
