/** CDK app: `npx cdk synth` / `npx cdk deploy`. Context: serviceName, senderAddress, jwtIssuer, jwtAudience. */
import { App, Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { RouteMapTrackerStack } from "../lib/route-map-tracker-stack.ts";

const app = new App();
const context = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return typeof value === "string" && value !== "" ? value : undefined;
};
new RouteMapTrackerStack(app, "RouteMapTracker", {
  serviceName: context("serviceName"),
  senderAddress: context("senderAddress"),
  jwtIssuer: context("jwtIssuer"),
  jwtAudience: context("jwtAudience"),
  retainData: app.node.tryGetContext("retainData") === true || context("retainData") === "true",
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
