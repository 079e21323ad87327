/**
 * One NodejsFunction per handler with the house settings: Node.js 22 on arm64, minified ESM bundles
 * with source maps, a log group with retention, and a reason-carrying nag suppression for the managed
 * basic-execution policy that every Lambda needs to write its logs.
 */

import { join } from "node:path";
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Architecture, Runtime, Tracing } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";

export const PROJECT_ROOT = join(import.meta.dirname, "..", "..");

export interface HandlerFunctionProps {
  /** Path of the handler file relative to functions/handlers, without extension, e.g. "http/get-route-map". */
  handlerPath: string;
  environment: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  logRetention: RetentionDays;
}

export class HandlerFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, "Logs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.fn = new NodejsFunction(this, "Function", {
      entry: join(PROJECT_ROOT, "functions", "handlers", `${props.handlerPath}.ts`),
      handler: "handler",
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        NODE_OPTIONS: "--enable-source-maps",
        POWERTOOLS_SERVICE_NAME: "route-map-tracker",
        POWERTOOLS_LOG_LEVEL: "INFO",
        ...props.environment,
      },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, "package-lock.json"),
      bundling: {
        minify: true,
        sourceMap: true,
        format: OutputFormat.ESM,
        target: "node22",
        mainFields: ["module", "main"],
        // Some dependencies are CommonJS and call require(); give ESM bundles a require.
        banner: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
        // Bundle the SDK too (the runtime's copy is not used): one tree-shaken file imports 4-6x
        // faster than the runtime SDK's hundreds of modules (bench/bundles.ts), at ~0.5 MB per bundle.
        externalModules: [],
      },
    });
    NagSuppressions.addResourceSuppressions(
      this.fn,
      [
        {
          id: "AwsSolutions-IAM4",
          reason: "AWSLambdaBasicExecutionRole only lets the function write its own CloudWatch logs.",
          appliesTo: [
            "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
          ],
        },
        {
          id: "AwsSolutions-IAM5",
          reason:
            "X-Ray put actions and DynamoDB index ARNs require wildcards; each grant is scoped to one resource.",
        },
        {
          id: "AwsSolutions-L1",
          reason:
            "Node.js 22 is the runtime the service is built and tested for (issue 2); upgrade deliberately.",
        },
      ],
      true,
    );
  }
}
