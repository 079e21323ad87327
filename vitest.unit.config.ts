import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    pool: "threads",
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", POWERTOOLS_METRICS_DISABLED: "true" },
  },
});
