/**
 * Drives the web app in a real headless Chromium: Debian's `chromium` package through playwright-core
 * (no browser download). A missing browser fails the run with how to install it: the issue asks for
 * browser tests that pass from a clean clone via .ci/run, which installs it, so a skip would hide a
 * broken CI machine. Also: per-page screenshots at desktop and phone width under test/artifacts/, and
 * an axe-core check that fails on any serious or critical accessibility violation.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { PROJECT_ROOT } from "./runner.ts";

export const ARTIFACTS_DIR = join(PROJECT_ROOT, "test", "artifacts");
export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Where the browser is: CHROMIUM_PATH, else Debian's package. */
export const chromiumPath = () => process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Flags for a quiet, reproducible headless run: no sandbox (CI containers run as root), no GPU, no
 * QUIC, and none of the background traffic (component updates, sync, field trials) a desktop
 * profile makes. Playwright gives every launch a fresh temporary profile (user-data-dir) and deletes it.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath))
    throw new Error(
      `No Chromium at ${executablePath}. The browser tests drive Debian's chromium package: ` +
        "install it with `sudo apt-get install -y chromium` (.ci/run does this), " +
        "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
    );
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * What went wrong in a page's console: uncaught errors and Content-Security-Policy refusals. The app
 * runs under its real CSP in these tests (no bypassCSP), so an inline script or a stray origin shows here.
 */
export function watchConsole(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy/i.test(text)) problems.push(`CSP: ${text}`);
  });
  return { problems };
}

/** A new isolated browser context (own storage: signed out) at desktop size, with console watch. */
export async function newPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: "en-GB" });
  const page = await context.newPage();
  const { problems } = watchConsole(page);
  return { context, page, problems };
}

/**
 * Writes test/artifacts/<name>-desktop.png and <name>-phone.png (full page), then leaves the page
 * at desktop size. The phone shot comes from the same page resized to 390 px: the layout the app
 * lays out for a phone, with the same data.
 */
export async function screenshot(page: Page, name: string): Promise<string[]> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const written: string[] = [];
  for (const [label, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    // One frame for the layout to settle after the resize.
    await page.evaluate(
      "new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))",
    );
    const path = join(ARTIFACTS_DIR, `${name}-${label}.png`);
    await page.screenshot({ path, fullPage: true });
    written.push(path);
  }
  await page.setViewportSize(DESKTOP);
  return written;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

let axeSource: string | undefined;

/**
 * Runs axe-core on the page as it is now and returns every violation whose impact is serious or
 * critical, described one per line ("" when none). axe is evaluated through the driver, not added as
 * a <script> tag: the app's CSP (script-src 'self') refuses inline scripts, and switching the CSP off
 * for the tests would hide the app's own CSP violations.
 */
export async function seriousAxeViolations(page: Page): Promise<string> {
  axeSource ??= readFileSync(join(PROJECT_ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");
  const present = await page.evaluate("typeof window.axe === 'object'");
  if (!present) await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    "window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => JSON.stringify(node.target))
          .join(", ")}`,
    )
    .join("\n");
}

/**
 * Whether the page scrolls sideways at the current width (a phone reader would have to pan): "" when
 * it fits, else its width and the widest elements that stick out. Scrolling inside a table's own
 * wrapper is fine; the page itself must fit.
 */
export async function sidewaysOverflow(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const scroll = document.documentElement.scrollWidth;
    if (scroll <= width) return "";
    // What sticks out of the page itself: not clipped by a scrolling ancestor (a table's wrapper),
    // or placed absolutely (a visually hidden text escapes its scroller unless that is its containing block).
    const clipped = (element) => {
      // An absolutely placed element escapes a scroller that is not its containing block (simplified: any).
      if (getComputedStyle(element).position === "absolute") return false;
      for (let at = element.parentElement; at && at !== document.body; at = at.parentElement)
        if (getComputedStyle(at).overflowX !== "visible") return true;
      return false;
    };
    const culprits = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && !clipped(element))
      .slice(0, 5)
      .map((element) => element.tagName.toLowerCase() + (element.className ? "." + String(element.className).split(" ").join(".") : "") + " (" + Math.round(element.getBoundingClientRect().right) + " px)");
    return "the page is " + scroll + " px wide at a " + width + " px viewport (sideways scrolling); sticking out: " + culprits.join(", ");
  })()`)) as string;
}

/**
 * Every action a person can take on the page (link, button, field) that is shown but not entirely
 * within the viewport's width: "" when all are in view, else the first few, named. A table that
 * scrolls sideways inside its own box hides its off-screen buttons just as surely, so nothing is
 * excused here; hidden elements (no box) are not actions on this page.
 */
export async function actionsOutOfView(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const out = [...document.querySelectorAll("a[href], button, input, select, textarea, summary")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) return false;
        const style = getComputedStyle(element);
        if (style.visibility === "hidden" || style.display === "none") return false;
        // Visually hidden helpers (1 px, clipped) are not actions; a skip link waits off-screen until
        // it is focused, and then it is in view.
        if (box.width <= 1 && box.height <= 1) return false;
        if (element.classList.contains("skip")) return false;
        return box.left < -1 || box.right > width + 1;
      })
      .slice(0, 6)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name = (element.getAttribute("aria-label") || element.textContent || element.getAttribute("name") || element.id || "").trim().slice(0, 40);
        return element.tagName.toLowerCase() + ' "' + name + '" (' + Math.round(box.left) + "-" + Math.round(box.right) + " px)";
      });
    return out.length ? "actions out of view at " + width + " px: " + out.join(", ") : "";
  })()`)) as string;
}

/**
 * Screenshot at both widths and an axe check at both widths (a phone layout can hide a label or
 * shrink a target), and at both widths the page must fit without sideways scrolling and every action
 * must lie within the viewport's width. Returns the serious or critical violations, any overflow and
 * any action out of view, one per line ("" when none), rather than throwing, so a test can record
 * them (expect.soft) and still walk on to the next step.
 */
export async function capture(page: Page, name: string): Promise<string> {
  const found: string[] = [];
  for (const [label, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    const violations = await seriousAxeViolations(page);
    if (violations) found.push(`${name} (${label}):\n${violations}`);
    const overflow = await sidewaysOverflow(page);
    if (overflow) found.push(`${name} (${label}): ${overflow}`);
    const outOfView = await actionsOutOfView(page);
    if (outOfView) found.push(`${name} (${label}): ${outOfView}`);
  }
  await screenshot(page, name);
  return found.join("\n");
}
