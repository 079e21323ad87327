/** lib/wildcard-guard.ts: a grant on Resource "*" fails synthesis unless its actions cannot be scoped. */
import { App, Aspects, Stack } from "aws-cdk-lib";
import { Annotations, Match } from "aws-cdk-lib/assertions";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { describe, expect, it } from "vitest";
import { WildcardResourceGuard } from "../../lib/wildcard-guard.ts";

function errorsFor(statement: PolicyStatement): string[] {
  const app = new App();
  const stack = new Stack(app, "GuardTest");
  const role = new Role(stack, "Role", { assumedBy: new ServicePrincipal("lambda.amazonaws.com") });
  role.addToPolicy(statement);
  Aspects.of(stack).add(new WildcardResourceGuard());
  app.synth();
  return Annotations.fromStack(stack)
    .findError("*", Match.stringLikeRegexp("WildcardResource"))
    .map((entry) => String(entry.entry.data));
}

describe("WildcardResourceGuard", () => {
  it("refuses a scopable action granted on *", () => {
    const errors = errorsFor(
      new PolicyStatement({ actions: ["s3:GetObject", "xray:PutTraceSegments"], resources: ["*"] }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("s3:GetObject");
    expect(errors[0]).not.toContain("xray:");
  });

  it("accepts X-Ray and ListStreams on *, and anything on a named resource", () => {
    expect(
      errorsFor(
        new PolicyStatement({
          actions: ["xray:PutTraceSegments", "xray:PutTelemetryRecords", "dynamodb:ListStreams"],
          resources: ["*"],
        }),
      ),
    ).toEqual([]);
    expect(
      errorsFor(new PolicyStatement({ actions: ["s3:GetObject"], resources: ["arn:aws:s3:::bucket/*"] })),
    ).toEqual([]);
  });
});
