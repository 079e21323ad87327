/** lib/constructs/handler-function.ts bundles with exactly the esbuild settings of lib/bundle-options.ts. */
import { OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { describe, expect, it } from "vitest";
import { LAMBDA_BUNDLE } from "../../lib/bundle-options.ts";
import { NODEJS_BUNDLING } from "../../lib/constructs/handler-function.ts";

describe("NODEJS_BUNDLING", () => {
  it("carries every esbuild setting of LAMBDA_BUNDLE", () => {
    expect(NODEJS_BUNDLING).toEqual({
      minify: LAMBDA_BUNDLE.minify,
      sourceMap: LAMBDA_BUNDLE.sourcemap,
      sourcesContent: LAMBDA_BUNDLE.sourcesContent,
      format: OutputFormat.ESM,
      target: LAMBDA_BUNDLE.target,
      mainFields: [...LAMBDA_BUNDLE.mainFields],
      banner: LAMBDA_BUNDLE.banner,
      externalModules: [...LAMBDA_BUNDLE.external],
    });
    expect(LAMBDA_BUNDLE.format).toBe("esm");
  });

  it("keeps source maps without inlined sources, and bundles the AWS SDK", () => {
    expect(NODEJS_BUNDLING).toMatchObject({ sourceMap: true, sourcesContent: false, externalModules: [] });
  });
});
