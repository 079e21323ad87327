/**
 * `npm test` bundles every Lambda with the deployed settings (lib/bundle-options.ts), so a dependency
 * that does not bundle, or a bundle over the 1 MB budget, fails here and not at deploy time. Each
 * bundle then loads without a single setting in its environment: no module reads its configuration
 * at import (functions/adapters/config.ts reads it on first use), so a function's cold start cannot
 * fail on a variable, and a handler never fails for one it does not use.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { buildLambdaBundles } from "../../bench/bundling.ts";
import { lambdaEntries } from "../../lib/bundle-options.ts";

const MAX_JS_BYTES = 1024 * 1024;
/**
 * Entries allowed more, each with its reason. inbound-carrier-mail parses MIME with mailparser, whose
 * charset tables (iconv-lite, libmime, encoding-japanese) alone are ~750 KB; SES invokes it
 * asynchronously, so its cold start delays no caller.
 */
const LARGER_BUDGETS: Readonly<Record<string, number>> = { "mail/inbound-carrier-mail": 2.5 * 1024 * 1024 };
const out = mkdtempSync(join(tmpdir(), "rmt-bundles-"));

afterAll(() => rmSync(out, { recursive: true, force: true }));

it("builds every Lambda entry with the deployed settings, each bundle at most 1 MB of JS with its map", async () => {
  const entries = lambdaEntries();
  const bundles = await buildLambdaBundles(out, entries);
  expect(bundles.map((bundle) => bundle.entry).sort()).toEqual([...entries].sort());
  const oversize = bundles
    .filter((bundle) => bundle.jsBytes > (LARGER_BUDGETS[bundle.entry] ?? MAX_JS_BYTES))
    .map((bundle) => `${bundle.entry}: ${(bundle.jsBytes / 1024).toFixed(0)} KB`);
  expect(oversize).toEqual([]);
  // Deployed with source maps (readable stack traces): each bundle has its map beside it.
  expect(bundles.filter((bundle) => bundle.mapBytes === 0).map((bundle) => bundle.entry)).toEqual([]);

  // One process imports every bundle with an environment that holds none of the project's settings.
  const load = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const failed = [];
      for (const [entry, file] of JSON.parse(process.argv[1])) {
        try {
          const module = await import(file);
          if (typeof module.handler !== "function") failed.push(entry + ": exports no handler");
        } catch (error) {
          failed.push(entry + ": " + (error instanceof Error ? error.message : String(error)));
        }
      }
      process.stdout.write(JSON.stringify(failed));`,
      JSON.stringify(bundles.map((bundle) => [bundle.entry, bundle.file])),
    ],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    },
  );
  expect(load.status, load.stderr).toBe(0);
  expect(JSON.parse(load.stdout)).toEqual([]);
}, 180_000);
