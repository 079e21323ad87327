/**
 * Builds every Lambda bundle with the deployed settings (lib/bundle-options.ts). Shared by
 * the bundle benchmark (bench/bundles.ts) and the bundling test (test/build/bundles.test.ts), so both
 * look at the files the stack deploys. The benchmark also builds an older checkout's entries (another
 * project root) with today's settings, to compare sizes.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { LAMBDA_BUNDLE, lambdaEntries } from "../lib/bundle-options.ts";

/** This checkout. */
export const PROJECT_ROOT = join(import.meta.dirname, "..");

export interface BuiltBundle {
  /** "http/get-route-map" */
  entry: string;
  /** The bundle, `<outDir>/<entry>/index.mjs` as NodejsFunction lays it out. */
  file: string;
  jsBytes: number;
  /** Size of the source map beside it; 0 when there is none. */
  mapBytes: number;
}

/**
 * One esbuild call for every entry: each entry is still its own self-contained bundle (no code
 * splitting, the banner on each), laid out as NodejsFunction does (`<entry>/index.mjs` + map), but the
 * shared dependencies (the AWS SDK) are parsed once, which keeps `npm test` fast. `projectRoot` is the
 * checkout whose `functions/handlers/<entry>.ts` are built (another one's entries are passed in too).
 */
export async function buildLambdaBundles(
  outDir: string,
  entries: readonly string[] = lambdaEntries(),
  projectRoot: string = PROJECT_ROOT,
): Promise<BuiltBundle[]> {
  // nodeOptions is a runtime setting (NODE_OPTIONS of each function), not a build option.
  const { nodeOptions: _runtimeOnly, banner, mainFields, external, ...options } = LAMBDA_BUNDLE;
  await build({
    ...options,
    entryPoints: entries.map((entry) => ({
      in: join(projectRoot, "functions", "handlers", `${entry}.ts`),
      out: `${entry}/index`,
    })),
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    mainFields: [...mainFields],
    external: [...external],
    banner: { js: banner },
    logLevel: "silent",
  });
  return entries.map((entry) => {
    const file = join(outDir, entry, "index.mjs");
    let mapBytes = 0;
    try {
      mapBytes = statSync(`${file}.map`).size;
    } catch {
      // no map written: reported as 0 and judged by the caller
    }
    return { entry, file, jsBytes: statSync(file).size, mapBytes };
  });
}

/**
 * What a bundle needed in its environment to be imported when checkouts read configuration at import
 * time. Today's bundles need none (test/build/bundles.test.ts imports them without any); kept so the
 * benchmark can still measure an older checkout.
 */
export const BUNDLE_IMPORT_ENV: Record<string, string> = {
  ROUTE_MAPS_TABLE: "t",
  SUBSCRIPTIONS_TABLE: "t",
  DELIVERIES_TABLE: "t",
  IDEMPOTENCY_TABLE: "t",
  DELIVERY_QUEUE_URL: "http://q",
  CARRIER_REQUESTS_QUEUE_URL: "http://q",
  DUE_CHECKS_QUEUE_URL: "http://q",
  JWT_ISSUER: "https://issuer.example",
  AWS_REGION: "eu-central-1",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  POWERTOOLS_LOG_LEVEL: "ERROR",
};
