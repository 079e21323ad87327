import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end and emulator tests start child processes; keep the 2-core machines from thrashing.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    // Handlers run in unit tests without a metrics recorder: no EMF lines on stdout (metrics tests unset it).
    // ... and without X-Ray: tracing off (the tracer tests switch it on for the module they load).
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      POWERTOOLS_METRICS_DISABLED: "true",
      POWERTOOLS_TRACE_ENABLED: "false",
    },
    hookTimeout: 60_000,
  },
});
