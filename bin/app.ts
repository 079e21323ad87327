/**
 * CDK app: `npx cdk synth` / `npx cdk deploy`. Context (lib/app-context.ts): serviceName, senderAddress,
 * jwtIssuer, jwtAudience (default route-map-tracker), jwtMaxLifetimeSeconds (default 86400), retainData,
 * rateLimitPerSecond (default 50), rateLimitBurst (default 100), rateLimitPerMinute (1500),
 * rateLimitPerHour (30000), rateLimitPerDay (300000).
 */
import { App, Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { stackPropsFromContext } from "../lib/app-context.ts";
import { RouteMapTrackerStack } from "../lib/route-map-tracker-stack.ts";

const app = new App();
new RouteMapTrackerStack(app, "RouteMapTracker", {
  ...stackPropsFromContext(app.node),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
