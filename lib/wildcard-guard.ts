/**
 * cdk-nag reports every `Resource: "*"` as the same finding ("Resource::*"), so the suppression that
 * X-Ray needs on every function would also hide a future `*` grant of anything else. This aspect
 * closes that gap: an IAM policy may grant on "*" only the actions listed here, which support no
 * resource-level permission; anything else is a synthesis error.
 */
import { Annotations, type IAspect, Stack } from "aws-cdk-lib";
import { CfnPolicy } from "aws-cdk-lib/aws-iam";
import type { IConstruct } from "constructs";

export const ACTIONS_ALLOWED_ON_ANY_RESOURCE: ReadonlySet<string> = new Set([
  // Active tracing (every function).
  "xray:PutTraceSegments",
  "xray:PutTelemetryRecords",
  // DynamoDB stream event sources (stream consumers).
  "dynamodb:ListStreams",
]);

interface Statement {
  Effect?: string;
  Action?: string | string[];
  Resource?: unknown;
}

export class WildcardResourceGuard implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnPolicy)) return;
    const document = Stack.of(node).resolve(node.policyDocument) as { Statement?: Statement[] };
    for (const statement of document.Statement ?? []) {
      if (statement.Effect !== "Allow" || ![statement.Resource].flat().includes("*")) continue;
      const refused = [statement.Action ?? []]
        .flat()
        .filter((action) => !ACTIONS_ALLOWED_ON_ANY_RESOURCE.has(action));
      if (refused.length > 0) {
        Annotations.of(node).addError(
          `[WildcardResource] ${refused.join(", ")} granted on Resource "*": scope it to its resources`,
        );
      }
    }
  }
}
