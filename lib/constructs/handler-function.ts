/**
 * One NodejsFunction per handler with the house settings: Node.js 22 on arm64, bundled as
 * lib/bundle-options.ts says (the bundle benchmark and test use the same data), a log group with
 * retention, active X-Ray tracing with the Powertools Tracer settings, and reason-carrying nag
 * suppressions for what every Lambda needs: the managed basic-execution policy (its own logs) and
 * X-Ray's resource-less put actions.
 */

import { join } from "node:path";
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Architecture, Runtime, Tracing } from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { LAMBDA_BUNDLE } from "../bundle-options.ts";

export const PROJECT_ROOT = join(import.meta.dirname, "..", "..");

const OUTPUT_FORMATS = { esm: OutputFormat.ESM, cjs: OutputFormat.CJS } as const;

/** NodejsFunction bundling built from LAMBDA_BUNDLE, so what we deploy is what bench/ and test/ bundle. */
export const NODEJS_BUNDLING: BundlingOptions = {
  minify: LAMBDA_BUNDLE.minify,
  sourceMap: LAMBDA_BUNDLE.sourcemap,
  sourcesContent: LAMBDA_BUNDLE.sourcesContent,
  format: OUTPUT_FORMATS[LAMBDA_BUNDLE.format],
  target: LAMBDA_BUNDLE.target,
  mainFields: [...LAMBDA_BUNDLE.mainFields],
  banner: LAMBDA_BUNDLE.banner,
  externalModules: [...LAMBDA_BUNDLE.external],
};

/**
 * Powertools Tracer in every function (active X-Ray tracing sends its segments): stated so a
 * deployment never runs untraced, whatever a handler's defaults (the local runner switches it off).
 * Responses are not recorded: they carry client secrets, share-link tokens and whole route maps, and
 * X-Ray keeps a segment's metadata readable to anyone with trace access. Errors and the outbound HTTPS
 * calls (webhooks, customer endpoints, JWKS) are.
 */
export const TRACER_ENVIRONMENT = {
  POWERTOOLS_TRACE_ENABLED: "true",
  POWERTOOLS_TRACER_CAPTURE_RESPONSE: "false",
  POWERTOOLS_TRACER_CAPTURE_ERROR: "true",
  POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: "true",
} as const;

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
        NODE_OPTIONS: LAMBDA_BUNDLE.nodeOptions,
        POWERTOOLS_SERVICE_NAME: "route-map-tracker",
        POWERTOOLS_LOG_LEVEL: "INFO",
        ...TRACER_ENVIRONMENT,
        ...props.environment,
      },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, "package-lock.json"),
      bundling: NODEJS_BUNDLING,
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
          // Only this finding: the stack suppresses each further wildcard where it grants it, and
          // lib/wildcard-guard.ts fails synthesis on any other action granted on "*".
          reason:
            "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
          appliesTo: ["Resource::*"],
        },
        {
          id: "AwsSolutions-L1",
          reason: "Node.js 22 is the runtime the service is built and tested for; upgrade deliberately.",
        },
      ],
      true,
    );
  }
}
