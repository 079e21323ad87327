/**
 * `npm run bench:web`: the web app's weight and speed.
 *
 * 1. Transferred size of the first page: the app built by web/build.ts `buildWebAppSync` (the same
 *    build the runner serves and the stack deploys) into a temporary folder; the first page is
 *    index.html, the scripts and stylesheets it references, the modules those import statically (a
 *    chunk loaded by `import()` later, such as the route map's zone table, is not part of it), and
 *    config.json. Raw and gzipped (zlib level 6, what CloudFront and most servers send), against the
 *    150 KB goal. The route-map page's extra chunks are printed too.
 * 2. Time to first render of a 3-leg route map: the real local runner, seeded through its APIs
 *    (test/support/web-scenario.ts), and Debian's headless Chromium (test/support/browser.ts). Each load
 *    is cold: a new browser context, signed in through the app's own dev sign-in, then the HTTP cache
 *    cleared (DevTools protocol) and `#/routemap/<awb>` opened as a new document. Measured from the
 *    navigation start (performance.timeOrigin) to the frame in which the last flight's section heading
 *    is laid out (a MutationObserver installed before the app's scripts run, then requestAnimationFrame).
 *    One warm-up load, then LOADS measured loads: median and p90.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { APP_CONFIG_FILE, type WebAppConfig } from "../functions/contracts/web-app.ts";
import { launchBrowser } from "../test/support/browser.ts";
import { startRunner } from "../test/support/runner.ts";
import {
  ACME,
  carrierSettings,
  digits,
  flightHeading,
  LATE_AWB,
  LATE_LEGS,
  onboard,
  seedLateThreeLegShipment,
} from "../test/support/web-scenario.ts";
import { buildWebAppSync } from "../web/build.ts";
import { figure, median, percentile } from "./support.ts";

const GOAL_BYTES = 150 * 1024;
const LOADS = Number(process.env.BENCH_WEB_LOADS ?? 12);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipped = (bytes: Buffer) => gzipSync(bytes, { level: 6 }).length;

/** Modules a script imports statically (`import … from "./x.js"`, `import "./x.js"`), not `import()`. */
function staticImports(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g))
    if (match[1]) found.add(match[1]);
  return [...found];
}
function dynamicImports(source: string): string[] {
  return [...source.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g)].flatMap((m) =>
    m[1] ? [m[1]] : [],
  );
}

/** index.html's scripts and stylesheets, then their static imports, transitively: paths in outDir. */
function firstPageFiles(outDir: string): { firstPage: string[]; later: string[] } {
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].flatMap((m) =>
    m[1] && !/^[a-z]+:/i.test(m[1]) ? [posix.normalize(m[1])] : [],
  );
  const firstPage = new Set<string>(["index.html"]);
  const later = new Set<string>();
  const queue = [...referenced];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (firstPage.has(file)) continue;
    firstPage.add(file);
    if (!file.endsWith(".js")) continue;
    const source = readFileSync(join(outDir, file), "utf8");
    for (const imported of staticImports(source)) queue.push(posix.join(posix.dirname(file), imported));
    for (const imported of dynamicImports(source)) later.add(posix.join(posix.dirname(file), imported));
  }
  for (const file of firstPage) later.delete(file);
  return { firstPage: [...firstPage], later: [...later] };
}

function transferredSize(): void {
  const outDir = mkdtempSync(join(tmpdir(), "rmt-web-bench-"));
  try {
    const built = buildWebAppSync({ outDir });
    const { firstPage, later } = firstPageFiles(outDir);
    // What the deployed app reads at start (the Cognito one: the larger of the two).
    const config: WebAppConfig = {
      SignIn: "cognito",
      CognitoDomain: "https://route-map-tracker-123456789012.auth.eu-central-1.amazoncognito.com",
      ClientId: "1example23456789abcdefghij",
      Scopes: "openid email ffw/service",
    };
    const rows: Array<{ file: string; raw: number; gzip: number }> = firstPage.map((file) => {
      const bytes = readFileSync(join(outDir, file));
      return { file, raw: bytes.length, gzip: gzipped(bytes) };
    });
    const configBytes = Buffer.from(JSON.stringify(config));
    rows.push({ file: APP_CONFIG_FILE, raw: configBytes.length, gzip: gzipped(configBytes) });
    process.stdout.write(`Built ${built.files.length} files (web/build.ts buildWebAppSync, minified)\n`);
    process.stdout.write("First page:\n");
    for (const row of rows)
      process.stdout.write(
        `  ${row.file.padEnd(40)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip\n`,
      );
    const raw = rows.reduce((sum, row) => sum + row.raw, 0);
    const gzip = rows.reduce((sum, row) => sum + row.gzip, 0);
    process.stdout.write(
      `  ${"total".padEnd(40)} ${kb(raw).padStart(10)} raw ${kb(gzip).padStart(10)} gzip\n`,
    );
    if (later.length > 0) {
      process.stdout.write("Loaded later (dynamic import, e.g. the route map's zone table):\n");
      for (const file of later) {
        const bytes = readFileSync(join(outDir, file));
        process.stdout.write(
          `  ${file.padEnd(40)} ${kb(bytes.length).padStart(10)} raw ${kb(gzipped(bytes)).padStart(10)} gzip\n`,
        );
      }
    }
    const verdict = gzip <= GOAL_BYTES ? "within" : "OVER";
    figure(
      "web app first page (index.html + JS + CSS + config.json)",
      `${kb(gzip)} gzipped (${kb(raw)} raw), ${verdict} the 150 KB goal`,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Installed before the app's scripts: records when the wanted heading is first laid out. */
const firstRenderProbe = (heading: string) => `(() => {
  const wanted = ${JSON.stringify(heading)};
  const check = () => {
    for (const element of document.querySelectorAll("h1,h2,h3,h4,h5,h6,[role=heading]")) {
      if (element.textContent.includes(wanted) && element.getClientRects().length > 0) {
        observer.disconnect();
        requestAnimationFrame(() => { window.__firstRender = performance.now(); });
        return;
      }
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function timeToFirstRender(): Promise<void> {
  const stack = await startRunner();
  const browser = await launchBrowser();
  try {
    await onboard(stack, ACME);
    await carrierSettings(stack);
    await seedLateThreeLegShipment(stack, ACME);
    const lastLeg = flightHeading(LATE_LEGS[LATE_LEGS.length - 1] as (typeof LATE_LEGS)[number]);
    const target = `${stack.url}/app/#/routemap/${digits(LATE_AWB)}`;
    const times: number[] = [];
    const bytes: number[] = [];
    for (let load = 0; load <= LOADS; load++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await signIn(page, `${stack.url}/app/`);
        const devtools = await context.newCDPSession(page);
        await devtools.send("Network.clearBrowserCache");
        await page.goto("about:blank");
        await page.addInitScript(firstRenderProbe(lastLeg));
        await page.goto(target);
        // A function, not a string: the app's CSP (no 'unsafe-eval') refuses a string predicate.
        await page.waitForFunction(
          () => (globalThis as { __firstRender?: number }).__firstRender !== undefined,
          undefined,
          {
            timeout: 30_000,
          },
        );
        const elapsed = (await page.evaluate("window.__firstRender")) as number;
        // What this cold load fetched: the document and every resource, as sent over the wire.
        const transferred = (await page.evaluate(
          "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).reduce((sum, e) => sum + e.transferSize, 0)",
        )) as number;
        if (load > 0) {
          times.push(elapsed);
          bytes.push(transferred);
        }
      } finally {
        await context.close();
      }
    }
    process.stdout.write(
      `Route map ${LATE_AWB} (3 legs), ${LOADS} cold loads: ${times.map((t) => t.toFixed(0)).join(", ")} ms\n`,
    );
    process.stdout.write(`Bytes over the wire per cold load (runner, as served): ${kb(median(bytes))}\n`);
    figure(
      "3-leg route map, time to first render (cold load, headless Chromium)",
      `median ${median(times).toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms over ${LOADS} loads`,
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}

/** The app's own local sign-in, as a person does it: the session lives in the tab. */
async function signIn(page: Page, appUrl: string): Promise<void> {
  await page.goto(appUrl);
  await page.getByRole("button", { name: `Sign in as ${ACME.ForwarderId}` }).click({ timeout: 30_000 });
  await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 30_000 });
}

transferredSize();
await timeToFirstRender();
