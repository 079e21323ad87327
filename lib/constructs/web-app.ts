/**
 * The forwarders' web app in AWS: its files in a private S3 bucket, a CloudFront
 * distribution that serves them at `/app/` through origin access control and sends everything else to
 * the REST API, so the app calls the API on its own origin (no CORS), and the app's hosted-login client
 * in the Cognito pool (lib/constructs/identity.ts addWebAppClient).
 *
 * - `/app`, `/app/*` -> the bucket (keys under `app/`); a CloudFront Function redirects `/app` to `/app/`
 *   and serves `index.html` for a path ending in `/` (the Cognito callback `/app/?code=...` too).
 *   Responses carry the app's CSP and security headers (functions/contracts/web-app.ts).
 * - default -> the API's stage on its execute-api domain: caching disabled, every method, every viewer
 *   header but Host (so `Authorization` reaches the TOKEN authorizer), HTTPS only.
 * - The files: web/build.ts `buildWebAppSync` bundled at synth time (locally, no Docker), hashed assets
 *   deployed first with a year's immutable caching, then `index.html` and `config.json` (the Cognito
 *   domain, client and scopes, from this stack) with `no-cache`, so a page never names assets that are
 *   not there yet. Old hashed assets are kept (not pruned): a page loaded before a deploy still finds
 *   its script.
 *
 * Everything lives in a nested stack of its own (lib/route-map-tracker-stack.ts lists the stacks). The
 * distribution names only the RestApi (its id) and the stage's name, never the stage or deployment
 * resources, so the functions can take its domain as APP_BASE_URL without a dependency cycle.
 * The bucket holds a build artifact that any deploy recreates: it is deleted with the stack, whatever
 * `retainData` says.
 */
import { join } from "node:path";
import { CfnOutput, DockerImage, Duration, Names, NestedStack, RemovalPolicy, Stack } from "aws-cdk-lib";
import type { IRestApi } from "aws-cdk-lib/aws-apigateway";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  S3OriginAccessControl,
  Signing,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import type { UserPoolClient } from "aws-cdk-lib/aws-cognito";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Asset } from "aws-cdk-lib/aws-s3-assets";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import {
  APP_CONFIG_FILE,
  APP_PATH,
  APP_SECURITY_HEADERS,
  appContentSecurityPolicy,
  type WebAppConfig,
} from "../../functions/contracts/web-app.ts";
import { buildWebAppSync } from "../../web/build.ts";
import { type Identity, WEB_APP_SCOPE_NAMES } from "./identity.ts";

export interface WebAppProps {
  /** The API the distribution fronts (only its id is used: see the file comment). */
  restApi: IRestApi;
  /** The stage the API is deployed to (a literal name, e.g. "v1"). */
  stageName: string;
  /** The Cognito pool, its domain and resource server: the app's hosted-login client is added to it. */
  identity: Identity;
  /** Retention of the file deployment's logs (CDK's BucketDeployment function). */
  logRetention: RetentionDays;
}

/** `app/`: the bucket's key prefix and the distribution's path, from APP_PATH ("/app/"). */
const APP_KEY_PREFIX = APP_PATH.replace(/^\/+/, "");
/** The app's path without its trailing slash ("/app"): redirected to APP_PATH. */
const APP_BARE_PATH = APP_PATH.replace(/\/+$/, "");
/** The files index.html loads are content-hashed: a new build has new names. */
export const HASHED_ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** The two files that name everything else: never served stale. */
export const ENTRY_FILES = ["index.html", APP_CONFIG_FILE] as const;

/**
 * CloudFront Function (viewer request) of the app's behaviours: `/app` -> 301 `/app/`; a path ending
 * in `/` -> its `index.html`. cloudfront-js-2.0; the app's routes are in the URL fragment, so no other
 * path needs rewriting.
 */
export const APP_PATH_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  if (request.uri === ${JSON.stringify(APP_BARE_PATH)}) {
    return { statusCode: 301, statusDescription: "Moved Permanently", headers: { location: { value: ${JSON.stringify(APP_PATH)} } } };
  }
  if (request.uri.endsWith("/")) request.uri += "index.html";
  return request;
}
`;

/** max-age of APP_SECURITY_HEADERS' Strict-Transport-Security, so CloudFront and the runner agree. */
function hstsMaxAge(): Duration {
  const seconds = /max-age=(\d+)/.exec(APP_SECURITY_HEADERS["strict-transport-security"])?.[1];
  if (!seconds) throw new Error("APP_SECURITY_HEADERS has no HSTS max-age");
  return Duration.seconds(Number(seconds));
}

export class WebApp extends Construct {
  readonly nestedStack: NestedStack;
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly client: UserPoolClient;
  /** `https://<distribution domain>`: the app's origin, APP_BASE_URL of the functions that link to it. */
  readonly baseUrl: string;
  /** `https://<distribution domain>/app/`: where people open the app. */
  readonly appUrl: string;

  constructor(scope: Construct, id: string, props: WebAppProps) {
    super(scope, id);
    const stack = new NestedStack(this, "Stack", {
      description: "Route Map Tracker: the web app (S3 behind CloudFront, which also fronts the API)",
    });
    this.nestedStack = stack;

    this.bucket = new Bucket(stack, "Files", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // A build artifact, recreated by every deploy: deleted with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    // CloudFront is global: its policies' and access controls' names are unique per account, so they
    // name the region too (the same stack in two regions would collide otherwise).
    const { region, urlSuffix } = Stack.of(stack);
    const globalName = (suffix: string) =>
      `${Names.uniqueResourceName(this, { maxLength: 40, separator: "-" })}-${suffix}-${region}`;

    const hsts = {
      accessControlMaxAge: hstsMaxAge(),
      includeSubdomains: APP_SECURITY_HEADERS["strict-transport-security"].includes("includeSubDomains"),
      override: true,
    };
    const cognitoOrigin = props.identity.domain.baseUrl();
    const appHeaders = new ResponseHeadersPolicy(stack, "AppHeaders", {
      responseHeadersPolicyName: globalName("app"),
      comment: "Route Map Tracker web app: CSP and security headers",
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          // The app exchanges the sign-in code for tokens at the Cognito domain.
          contentSecurityPolicy: appContentSecurityPolicy([cognitoOrigin]),
          override: true,
        },
        strictTransportSecurity: hsts,
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });
    // The API answers JSON (and the e-mail confirmation page, with its own CSP): no CSP here.
    const apiHeaders = new ResponseHeadersPolicy(stack, "ApiHeaders", {
      responseHeadersPolicyName: globalName("api"),
      comment: "Route Map Tracker API: security headers",
      securityHeadersBehavior: {
        strictTransportSecurity: hsts,
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });

    const appPaths = new EdgeFunction(stack, "AppPaths", {
      comment: "Route Map Tracker: /app -> /app/, a folder -> its index.html",
      code: FunctionCode.fromInline(APP_PATH_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
    const appBehavior = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket, {
        originAccessControl: new S3OriginAccessControl(stack, "FilesAccess", {
          originAccessControlName: globalName("files"),
          description: "CloudFront reads the web app's files (SigV4-signed requests)",
          signing: Signing.SIGV4_ALWAYS,
        }),
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: appHeaders,
      compress: true,
      functionAssociations: [{ function: appPaths, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
    this.distribution = new Distribution(stack, "Distribution", {
      comment: "Route Map Tracker: the web app at /app/ and the API",
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: new HttpOrigin(`${props.restApi.restApiId}.execute-api.${region}.${urlSuffix}`, {
          originPath: `/${props.stageName}`,
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
        }),
        // A token sent over plain HTTP is already exposed: refuse rather than redirect.
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        // Every viewer header (Authorization included) but Host: API Gateway routes by its own host.
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: apiHeaders,
      },
      additionalBehaviors: { [APP_BARE_PATH]: appBehavior, [`${APP_PATH}*`]: appBehavior },
      // No error responses: they would replace the API's own 403/404 problem+json too.
    });
    this.baseUrl = `https://${this.distribution.distributionDomainName}`;
    this.appUrl = `${this.baseUrl}${APP_PATH}`;

    this.client = props.identity.addWebAppClient(stack, this.appUrl);
    const config: WebAppConfig = {
      SignIn: "cognito",
      CognitoDomain: cognitoOrigin,
      ClientId: this.client.userPoolClientId,
      Scopes: WEB_APP_SCOPE_NAMES,
    };
    this.deployFiles(stack, config, props.logRetention);
    this.suppressFindings(stack);

    new CfnOutput(Stack.of(this), "AppUrl", {
      description: "The forwarders' web app (Cognito hosted sign-in); the API is also served on this origin",
      value: this.appUrl,
    });
  }

  /** The built app, hashed assets first, then the entry files that name them. */
  private deployFiles(stack: NestedStack, config: WebAppConfig, logRetention: RetentionDays): void {
    const built = new Asset(stack, "Build", {
      path: join(import.meta.dirname, "..", "..", "web"),
      bundling: {
        // Never used: the app is built here with esbuild (tryBundle), no Docker.
        image: DockerImage.fromRegistry("none"),
        local: {
          tryBundle(outputDir) {
            buildWebAppSync({ outDir: outputDir, minify: true });
            return true;
          },
        },
      },
    });
    const files = Source.bucket(built.bucket, built.s3ObjectKey);
    // One function serves both deployments: one log group, with a retention.
    const logGroup = new LogGroup(stack, "DeploymentLogs", {
      retention: logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const assets = new BucketDeployment(stack, "Assets", {
      sources: [files],
      destinationBucket: this.bucket,
      destinationKeyPrefix: APP_KEY_PREFIX,
      exclude: [...ENTRY_FILES],
      cacheControl: [CacheControl.fromString(HASHED_ASSET_CACHE_CONTROL)],
      prune: false,
      logGroup,
    });
    const entry = new BucketDeployment(stack, "EntryFiles", {
      sources: [files, Source.jsonData(APP_CONFIG_FILE, config)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: APP_KEY_PREFIX,
      exclude: ["*"],
      include: [...ENTRY_FILES],
      cacheControl: [CacheControl.noCache()],
      prune: false,
      logGroup,
    });
    entry.node.addDependency(assets);
  }

  /** Why the remaining AwsSolutions findings do not apply, each on the resource it is about. */
  private suppressFindings(stack: NestedStack): void {
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: "AwsSolutions-S1",
        reason:
          "The bucket holds the public build of the web app, written only by the stack's deployment; reads come through CloudFront only (origin access control).",
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: "AwsSolutions-CFR1",
        reason: "Forwarders and carriers work worldwide: no country is excluded.",
      },
      {
        id: "AwsSolutions-CFR2",
        reason:
          "WAF is attached per environment by the platform team (as for the API); rate limits are enforced per stage and per caller.",
      },
      {
        id: "AwsSolutions-CFR3",
        reason:
          "Every API request behind the distribution is logged by API Gateway's access log; the rest are the app's public files.",
      },
      {
        id: "AwsSolutions-CFR4",
        reason:
          "The distribution uses CloudFront's default *.cloudfront.net certificate, which fixes the viewer TLS policy; a custom domain with TLSv1.2_2021 is a per-environment choice.",
      },
    ]);
    // BucketDeployment's singleton function (the AWS CLI in a Lambda) and its role, created by CDK.
    for (const construct of stack.node.children) {
      if (!construct.node.id.startsWith("Custom::CDKBucketDeployment")) continue;
      NagSuppressions.addResourceSuppressions(
        construct,
        [
          {
            id: "AwsSolutions-L1",
            reason:
              "CDK's BucketDeployment function: its runtime is chosen by aws-cdk-lib and follows its upgrades.",
          },
          {
            id: "AwsSolutions-IAM4",
            reason:
              "CDK's BucketDeployment function writes only its own CloudWatch logs with the basic execution role.",
            appliesTo: [
              "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
            ],
          },
          {
            id: "AwsSolutions-IAM5",
            reason:
              "CDK's BucketDeployment copies the build's objects from the CDK asset bucket into this app bucket (read, list, write, delete on their objects), as aws-cdk-lib grants them.",
            appliesTo: [
              ...["GetObject*", "GetBucket*", "List*", "DeleteObject*", "Abort*"].map(
                (action) => `Action::s3:${action}`,
              ),
              { regex: "/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-.+\\/\\*$/" },
              { regex: "/^Resource::<Files[0-9A-F]{8}\\.Arn>\\/\\*$/" },
            ],
          },
        ],
        true,
      );
    }
  }
}
