/**
 * `npm run test:unit`: the pure core and web logic (test/unit), no emulator, for feedback in seconds.
 * `npm test` still runs these files with everything else (vitest.config.ts includes test/**).
 *
 * Threads without isolation: the files share one module graph per worker, so the core, valibot and
 * the handlers the HTTP unit tests drive are loaded once per worker, not once per file (with a fresh
 * graph per file, loading was nine tenths of the run). Safe here because the unit tests hold no
 * state across files: those that stub the environment, spy or load modules afresh undo it after each
 * test (vi.unstubAllEnvs, mockRestore, vi.resetModules), and memory adapters are created per test.
 * The one file that replaces a module (vi.mock of the HTTP pipeline, to record what every handler
 * declares) runs isolated: in a shared graph the handlers may already be loaded with the real one.
 */
import { defineConfig } from "vitest/config";

const MOCKS_MODULES = ["test/unit/http/openapi-declarations.test.ts"];

export default defineConfig({
  test: {
    pool: "threads",
    maxWorkers: 2,
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], exclude: MOCKS_MODULES, isolate: false },
      },
      { extends: true, test: { name: "unit-isolated", include: MOCKS_MODULES, isolate: true } },
    ],
    // As in vitest.config.ts: no SDK Node-version notice, no EMF lines, no X-Ray.
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      POWERTOOLS_METRICS_DISABLED: "true",
      POWERTOOLS_TRACE_ENABLED: "false",
    },
  },
});
