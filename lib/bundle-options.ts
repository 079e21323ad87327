/**
 * How every Lambda is bundled, as plain data (no CDK import), so the stack's NodejsFunction, the bundle
 * benchmark and the bundling test build exactly the same files.
 */

import { EVENT_FUNCTIONS } from "../functions/contracts/event-functions.ts";
import { INBOUND_MAIL_FUNCTION } from "../functions/contracts/inbound-mail.ts";
import { ROUTES } from "../functions/contracts/routes.ts";

export const LAMBDA_BUNDLE = {
  minify: true,
  format: "esm",
  platform: "node",
  target: "node22",
  mainFields: ["module", "main"],
  // Source maps for readable stack traces, without the sources inlined: the map stays a fraction of
  // its size and Node (--enable-source-maps) parses less of it on a cold start.
  sourcemap: true,
  sourcesContent: false,
  // Some dependencies are CommonJS and call require(); give ESM bundles a require.
  banner: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
  // The AWS SDK is bundled too (the runtime's copy is not used): one tree-shaken file imports 4-6x
  // faster than the runtime SDK's hundreds of modules (bench/bundles.ts).
  external: [] as string[],
  /** NODE_OPTIONS each function runs with. */
  nodeOptions: "--enable-source-maps",
} as const;

/**
 * Cognito's pre-token-generation trigger (lib/constructs/identity.ts): its handler id (the entry in
 * lib/function-access.ts) and folder under functions/handlers.
 */
export const PRE_TOKEN_GENERATION = { handler: "pre-token-generation", folder: "cognito" } as const;

/** Every Lambda entry, as a path under functions/handlers without extension ("http/get-route-map"). */
export function lambdaEntries(): string[] {
  return [
    "http/authorizer",
    ...new Set(ROUTES.map((route) => `http/${route.handler}`)),
    ...EVENT_FUNCTIONS.map((fn) => `${fn.folder}/${fn.handler}`),
    `${PRE_TOKEN_GENERATION.folder}/${PRE_TOKEN_GENERATION.handler}`,
    `${INBOUND_MAIL_FUNCTION.folder}/${INBOUND_MAIL_FUNCTION.handler}`,
  ];
}
