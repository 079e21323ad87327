/**
 * CDK app: `npx cdk synth` / `npx cdk deploy`. Context flags (lib/app-context.ts; README "Deploying" has
 * every flag with its default): senderAddress (required unless demo=true), demo, retainData (default
 * true), serviceName, jwtIssuer, jwtAudience, jwtMaxLifetimeSeconds, rateLimitPerSecond, rateLimitBurst,
 * rateLimitPerMinute, rateLimitPerHour, rateLimitPerDay, rateLimitTiers, rateLimitCallerTiers,
 * cognitoDomainPrefix, webAppCallbackUrls.
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
