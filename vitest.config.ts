import { defineConfig } from "vitest/config";
import { scaled } from "./test/support/time.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end and emulator tests start child processes; keep the 2-core machines from thrashing.
    pool: "forks",
    maxWorkers: 2,
    // Budgets scale with TEST_TIME_FACTOR (test/support/time.ts): a loaded machine is slower, not wrong.
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    // Handlers run in unit tests without a metrics recorder: no EMF lines on stdout (metrics tests unset it).
    // ... and without X-Ray: tracing off (the tracer tests switch it on for the module they load).
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      POWERTOOLS_METRICS_DISABLED: "true",
      POWERTOOLS_TRACE_ENABLED: "false",
    },
    // The run's register of started processes, checked at the end: nothing the suite started is left.
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/stop-what-started.ts"],
  },
});
