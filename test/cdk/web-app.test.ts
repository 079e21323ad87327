/**
 * The web app in AWS (lib/constructs/web-app.ts), asserted on the synthesized templates
 * (its nested stack folded in): a private, encrypted, TLS-only bucket read by CloudFront through
 * origin access control (the bucket policy names this distribution only); the distribution's API
 * behaviour (the stage on the execute-api domain, caching disabled, every method, every viewer header
 * but Host) and its `/app` behaviours (the path function, the CSP and security headers); the files
 * deployed with the right caching and the Cognito config; the web client's OAuth settings;
 * APP_BASE_URL on exactly the functions that link to the app, with no dependency cycle; the outputs;
 * the stack's resource budget; cdk-nag with no unsuppressed finding.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { App, Aspects, type CfnElement } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { CachePolicy, OriginRequestPolicy } from "aws-cdk-lib/aws-cloudfront";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { SETTINGS_ENV } from "../../functions/contracts/settings.ts";
import { APP_SECURITY_HEADERS, appContentSecurityPolicy } from "../../functions/contracts/web-app.ts";
import { API_STAGE_NAME } from "../../lib/constructs/api.ts";
import {
  APP_PATH_FUNCTION_CODE,
  ENTRY_FILES,
  HASHED_ASSET_CACHE_CONTROL,
} from "../../lib/constructs/web-app.ts";
import { FUNCTION_ACCESS } from "../../lib/function-access.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Resource = {
  Type: string;
  Properties?: Record<string, Json>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
};

let stack: RouteMapTrackerStack;
let template: Template;
let outdir: string;

beforeAll(() => {
  // Bundling (the app's esbuild build, the functions) is exercised by `npx cdk synth`.
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new RouteMapTrackerStack(app, "WebAppTest", {
    env: { account: "123456789012", region: "eu-central-1" },
    senderAddress: "alerts@forwarder.example",
    // The largest stack the flags make (inbound mail adds its function and bucket): the budget's worst case.
    inboundMailRecipient: "carriers@forwarder.example",
    webAppCallbackUrls: ["http://localhost:5173/app/"],
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  outdir = app.synth().directory;
  template = wholeTemplate(stack);
}, 240_000);

const resourcesOf = (type: string) =>
  Object.entries(template.findResources(type)) as Array<[string, Resource]>;

function only(type: string): [string, Resource] {
  const found = resourcesOf(type);
  expect(found, type).toHaveLength(1);
  return found[0] as [string, Resource];
}

const logicalIdOf = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);

/** The value at `path` inside a template value; fails the test when any step is missing. */
function at(value: unknown, ...path: Array<string | number>): Json {
  let current: unknown = value;
  for (const step of path) {
    if (current === null || typeof current !== "object" || !(step in current))
      throw new Error(`no ${path.join(".")} in ${JSON.stringify(value)?.slice(0, 200)}`);
    current = (current as Record<string | number, unknown>)[step];
  }
  return current as Json;
}

/**
 * A value as text, references shown as `<LogicalId>` / `<LogicalId.Attribute>`, Fn::Join joined:
 * `https://<Distribution.DomainName>/app/`.
 */
function text(value: Json | undefined): string {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    if (typeof value.Ref === "string") return `<${value.Ref}>`;
    const getAtt = value["Fn::GetAtt"];
    if (Array.isArray(getAtt)) return `<${getAtt.join(".")}>`;
    const join = value["Fn::Join"];
    if (Array.isArray(join) && Array.isArray(join[1]))
      return join[1].map((part) => text(part)).join(String(join[0]));
  }
  throw new Error(`not text: ${JSON.stringify(value)}`);
}

/** The app's bucket (the stack also has the inbound-mail bucket). */
function appBucket(): [string, Resource] {
  const id = logicalIdOf(stack.webApp.bucket);
  return [id, template.toJSON().Resources[id] as Resource];
}

const distribution = () => only("AWS::CloudFront::Distribution");
const distributionConfig = () => distribution()[1].Properties?.DistributionConfig as Record<string, Json>;
const distributionDomain = () => `<${distribution()[0]}.DomainName>`;
const cognitoDomain = () =>
  `https://<${logicalIdOf(stack.identity.domain)}>.auth.eu-central-1.amazoncognito.com`;

function originOf(behavior: Json): Record<string, Json> {
  const id = (behavior as Record<string, Json>).TargetOriginId;
  const origins = distributionConfig().Origins as Array<Record<string, Json>>;
  const origin = origins.find((candidate) => candidate.Id === id);
  if (!origin) throw new Error(`no origin ${String(id)}`);
  return origin;
}

function behaviorFor(pattern: string): Record<string, Json> {
  const behaviors = distributionConfig().CacheBehaviors as Array<Record<string, Json>>;
  const behavior = behaviors.find((candidate) => candidate.PathPattern === pattern);
  if (!behavior) throw new Error(`no behaviour ${pattern}`);
  return behavior;
}

function headersPolicy(ref: Json): Record<string, Json> {
  const id = (ref as { Ref: string }).Ref;
  const policy = template.toJSON().Resources[id] as Resource;
  expect(policy.Type).toBe("AWS::CloudFront::ResponseHeadersPolicy");
  return at(policy.Properties, "ResponseHeadersPolicyConfig", "SecurityHeadersConfig") as Record<
    string,
    Json
  >;
}

describe("the bucket", () => {
  it("is private, encrypted and refuses plain HTTP", () => {
    const [id, bucket] = appBucket();
    expect(bucket.Type).toBe("AWS::S3::Bucket");
    expect(bucket.Properties?.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties?.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
    });
    expect(bucket.Properties?.OwnershipControls).toEqual({
      Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }],
    });
    const statements = policyStatements(id);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: "Deny",
        Action: "s3:*",
        Principal: { AWS: "*" },
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      }),
    );
  });

  it("is deleted with the stack, objects and all: it holds a build that every deploy recreates", () => {
    const [id, bucket] = appBucket();
    expect(bucket.DeletionPolicy).toBe("Delete");
    const autoDelete = resourcesOf("Custom::S3AutoDeleteObjects").filter(
      ([, resource]) => JSON.stringify(resource.Properties?.BucketName) === JSON.stringify({ Ref: id }),
    );
    expect(autoDelete).toHaveLength(1);
  });

  it("lets only this distribution read its objects, through origin access control", () => {
    const [bucketId] = appBucket();
    const [oacId, oac] = only("AWS::CloudFront::OriginAccessControl");
    expect(oac.Properties?.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: "s3",
      SigningBehavior: "always",
      SigningProtocol: "sigv4",
    });
    const s3Origin = originOf(behaviorFor("/app/*"));
    expect(s3Origin.OriginAccessControlId).toEqual({ "Fn::GetAtt": [oacId, "Id"] });
    expect(s3Origin.DomainName).toEqual({ "Fn::GetAtt": [bucketId, "RegionalDomainName"] });
    const reads = policyStatements(bucketId).filter(
      (statement) =>
        JSON.stringify(statement.Principal) === JSON.stringify({ Service: "cloudfront.amazonaws.com" }),
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ Effect: "Allow", Action: "s3:GetObject" });
    expect(text(reads[0]?.Resource as Json)).toBe(`<${bucketId}.Arn>/*`);
    const condition = reads[0]?.Condition as { StringEquals: Record<string, Json> };
    expect(text(condition.StringEquals["AWS:SourceArn"])).toBe(
      `arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution/<${distribution()[0]}>`,
    );
  });
});

function policyStatements(bucketId: string): Array<Record<string, Json>> {
  const policies = resourcesOf("AWS::S3::BucketPolicy").filter(
    ([, policy]) => JSON.stringify(policy.Properties?.Bucket) === JSON.stringify({ Ref: bucketId }),
  );
  expect(policies).toHaveLength(1);
  return at(policies[0]?.[1].Properties, "PolicyDocument", "Statement") as Array<Record<string, Json>>;
}

describe("the distribution", () => {
  it("sends everything but the app to the API's stage: no caching, every method, every viewer header but Host, HTTPS only", () => {
    const api = distributionConfig().DefaultCacheBehavior as Record<string, Json>;
    expect(api).toMatchObject({
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      ViewerProtocolPolicy: "https-only",
    });
    expect([...(api.AllowedMethods as string[])].sort()).toEqual(
      ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"].sort(),
    );
    const origin = originOf(api);
    expect(text(origin.DomainName)).toBe(
      `<${logicalIdOf(stack.api.restApi)}>.execute-api.eu-central-1.<AWS::URLSuffix>`,
    );
    expect(origin.OriginPath).toBe(`/${API_STAGE_NAME}`);
    expect(origin.CustomOriginConfig).toEqual({
      OriginProtocolPolicy: "https-only",
      OriginSSLProtocols: ["TLSv1.2"],
    });
  });

  it("answers no error page of its own, which would replace the API's problem+json", () => {
    expect(distributionConfig().CustomErrorResponses).toBeUndefined();
  });

  it("serves /app and /app/* from the bucket through the path function, cached, redirecting HTTP", () => {
    const [functionId] = only("AWS::CloudFront::Function");
    for (const pattern of ["/app", "/app/*"]) {
      const behavior = behaviorFor(pattern);
      expect(behavior, pattern).toMatchObject({
        AllowedMethods: ["GET", "HEAD"],
        CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
        ViewerProtocolPolicy: "redirect-to-https",
        FunctionAssociations: [
          { EventType: "viewer-request", FunctionARN: { "Fn::GetAtt": [functionId, "FunctionARN"] } },
        ],
      });
      expect(originOf(behavior).S3OriginConfig, pattern).toBeDefined();
    }
    expect(distributionConfig().CacheBehaviors).toHaveLength(2);
  });

  it("names its policies and access control per region (CloudFront names are global to the account)", () => {
    for (const [id, policy] of resourcesOf("AWS::CloudFront::ResponseHeadersPolicy"))
      expect(text(at(policy.Properties, "ResponseHeadersPolicyConfig", "Name")), id).toMatch(
        /-eu-central-1$/,
      );
    const [, oac] = only("AWS::CloudFront::OriginAccessControl");
    expect(text(at(oac.Properties, "OriginAccessControlConfig", "Name"))).toMatch(/-eu-central-1$/);
  });
});

describe("the path function", () => {
  type Request = { uri: string };
  const handler = new Function(`${APP_PATH_FUNCTION_CODE}; return handler;`)() as (event: {
    request: Request;
  }) => Request | { statusCode: number; headers: Record<string, { value: string }> };

  it("redirects /app to /app/", () => {
    expect(handler({ request: { uri: "/app" } })).toMatchObject({
      statusCode: 301,
      headers: { location: { value: "/app/" } },
    });
  });

  it("serves index.html for the app's folder (the sign-in callback /app/?code=... too) and files as they are", () => {
    expect(handler({ request: { uri: "/app/" } })).toEqual({ uri: "/app/index.html" });
    expect(handler({ request: { uri: "/app/assets/app-ABC123.js" } })).toEqual({
      uri: "/app/assets/app-ABC123.js",
    });
    expect(handler({ request: { uri: "/app/config.json" } })).toEqual({ uri: "/app/config.json" });
  });

  it("is the code the distribution runs", () => {
    const [, fn] = only("AWS::CloudFront::Function");
    expect(fn.Properties?.FunctionCode).toBe(APP_PATH_FUNCTION_CODE);
    expect(at(fn.Properties, "FunctionConfig", "Runtime")).toBe("cloudfront-js-2.0");
  });
});

describe("security headers", () => {
  const hsts = {
    AccessControlMaxAgeSec: 63072000,
    IncludeSubdomains: true,
    Override: true,
  };

  it("gives the app the CSP (its own origin plus the Cognito domain for the token exchange) and the security headers", () => {
    const headers = headersPolicy(behaviorFor("/app/*").ResponseHeadersPolicyId as Json);
    expect(behaviorFor("/app").ResponseHeadersPolicyId).toEqual(
      behaviorFor("/app/*").ResponseHeadersPolicyId,
    );
    const csp = headers.ContentSecurityPolicy as Record<string, Json>;
    expect(csp.Override).toBe(true);
    expect(text(csp.ContentSecurityPolicy)).toBe(appContentSecurityPolicy([cognitoDomain()]));
    expect(text(csp.ContentSecurityPolicy)).toContain("frame-ancestors 'none'");
    expect(headers.StrictTransportSecurity).toEqual(hsts);
    expect(APP_SECURITY_HEADERS["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: "DENY", Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: "no-referrer", Override: true });
  });

  it("gives the API HSTS, nosniff, DENY and no-referrer, but not the app's CSP", () => {
    const headers = headersPolicy(
      (distributionConfig().DefaultCacheBehavior as Record<string, Json>).ResponseHeadersPolicyId as Json,
    );
    expect(headers.StrictTransportSecurity).toEqual(hsts);
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: "DENY", Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: "no-referrer", Override: true });
    expect(headers.ContentSecurityPolicy).toBeUndefined();
  });
});

describe("the app's files", () => {
  const deployments = () => resourcesOf("Custom::CDKBucketDeployment");
  const deployment = (prefix: string) => {
    const found = deployments().find(([id]) => id.startsWith(prefix));
    if (!found) throw new Error(`no deployment ${prefix}`);
    return found;
  };

  it("deploys the hashed assets for a year, immutable, never pruning a page's older script", () => {
    const [, assets] = deployment("Assets");
    expect(assets.Properties).toMatchObject({
      DestinationBucketName: { Ref: appBucket()[0] },
      DestinationBucketKeyPrefix: "app/",
      Exclude: [...ENTRY_FILES],
      SystemMetadata: { "cache-control": HASHED_ASSET_CACHE_CONTROL },
      Prune: false,
    });
  });

  it("deploys index.html and config.json with no-cache, after the assets they name", () => {
    const [assetsId] = deployment("Assets");
    const [, entry] = deployment("EntryFiles");
    expect(entry.Properties).toMatchObject({
      DestinationBucketKeyPrefix: "app/",
      Exclude: ["*"],
      Include: ["index.html", "config.json"],
      SystemMetadata: { "cache-control": "no-cache" },
      Prune: false,
    });
    expect([entry.DependsOn ?? []].flat()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${assetsId.replace(/CustomResource.*$/, "")}`)),
      ]),
    );
    expect(deployments()).toHaveLength(2);
  });

  it("writes config.json for the Cognito sign-in: this pool's domain, the web client, openid and the forwarder scope", () => {
    const [, entry] = deployment("EntryFiles");
    const keys = entry.Properties?.SourceObjectKeys as string[];
    const markers = entry.Properties?.SourceMarkers as Array<Record<string, Json>>;
    const configIndex = keys.findIndex((key) => {
      try {
        return (
          readFileSync(join(outdir, `asset.${key.replace(/\.zip$/, "")}`, "config.json"), "utf8").length > 0
        );
      } catch {
        return false;
      }
    });
    expect(configIndex).toBeGreaterThanOrEqual(0);
    let config = readFileSync(
      join(outdir, `asset.${String(keys[configIndex]).replace(/\.zip$/, "")}`, "config.json"),
      "utf8",
    );
    for (const [marker, value] of Object.entries(markers[configIndex] ?? {}))
      config = config.replaceAll(marker, text(value));
    expect(JSON.parse(config)).toEqual({
      SignIn: "cognito",
      CognitoDomain: cognitoDomain(),
      ClientId: `<${only("AWS::Cognito::UserPoolClient")[0]}>`,
      Scopes: "openid routemap/forwarder",
    });
  });

  it("gives the deployment function's logs a retention", () => {
    const functions = resourcesOf("AWS::Lambda::Function").filter(([id]) =>
      id.startsWith("CustomCDKBucketDeployment"),
    );
    expect(functions).toHaveLength(1);
    const group = String(at(functions[0]?.[1].Properties, "LoggingConfig", "LogGroup", "Ref"));
    const resource = template.toJSON().Resources[group] as Resource;
    expect(resource.Type).toBe("AWS::Logs::LogGroup");
    expect(resource.Properties?.RetentionInDays).toBeGreaterThan(0);
  });
});

describe("the web app's Cognito client", () => {
  it("is public, authorization code only, openid and the forwarder scope, the app's URL to come back and sign out to", () => {
    const [, client] = only("AWS::Cognito::UserPoolClient");
    const appUrl = `https://${distributionDomain()}/app/`;
    expect(client.Properties).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlows: ["code"],
      AllowedOAuthFlowsUserPoolClient: true,
      SupportedIdentityProviders: ["COGNITO"],
      UserPoolId: { Ref: logicalIdOf(stack.identity.userPool) },
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: "ENABLED",
    });
    expect((at(client.Properties, "AllowedOAuthScopes") as Json[]).map(text)).toEqual([
      "openid",
      `<${logicalIdOf(stack.identity.resourceServer)}>/forwarder`,
    ]);
    for (const property of ["CallbackURLs", "LogoutURLs"])
      expect((at(client.Properties, property) as Json[]).map(text), property).toEqual([
        appUrl,
        "http://localhost:5173/app/",
      ]);
    expect(client.Properties?.AllowedOAuthFlows).not.toContain("client_credentials");
    expect(client.Properties?.AllowedOAuthFlows).not.toContain("implicit");
  });
});

describe("APP_BASE_URL", () => {
  const webAppStackId = () =>
    logicalIdOf({ node: { defaultChild: stack.webApp.nestedStack.nestedStackResource } });

  it("is the distribution's https origin on exactly the functions that link to the app", () => {
    const linking = Object.entries(FUNCTION_ACCESS)
      .filter(([, access]) => access.linksToApp)
      .map(([handler]) => handler)
      .sort();
    expect(linking).toEqual(["create-route-map-share", "deliver-job"]);
    const withSetting = resourcesOf("AWS::Lambda::Function").filter(
      ([, fn]) =>
        (fn.Properties?.Environment as { Variables?: Record<string, Json> } | undefined)?.Variables?.[
          SETTINGS_ENV.appBaseUrl
        ] !== undefined,
    );
    const functions = new Map([...stack.api.functions, ...stack.eventFunctions]);
    expect(withSetting.map(([id]) => id).sort()).toEqual(
      linking.map((handler) => logicalIdOf(functions.get(handler) as never)).sort(),
    );
    for (const [id, fn] of withSetting) {
      const value = at(fn.Properties, "Environment", "Variables", SETTINGS_ENV.appBaseUrl);
      expect(text(value), id).toMatch(
        new RegExp(
          `^https://<${webAppStackId()}\\.Outputs\\.[A-Za-z0-9]*Distribution[A-Za-z0-9]*DomainName>$`,
        ),
      );
    }
  });

  it("creates no dependency cycle: the distribution names the API, not its stage, deployment or methods", () => {
    const nested = (Template.fromStack(stack).toJSON().Resources as Record<string, Resource>)[
      webAppStackId()
    ];
    const parameters = JSON.stringify(nested?.Properties?.Parameters);
    expect(parameters).toContain(logicalIdOf(stack.api.restApi));
    const stage = stack.api.restApi.deploymentStage;
    expect(parameters).not.toContain(logicalIdOf(stage));
    // The assertions library refuses a template whose resources depend on each other in a cycle.
    expect(() => Template.fromStack(stack)).not.toThrow();
    expect(() => Template.fromStack(stack.webApp.nestedStack)).not.toThrow();
  });
});

describe("outputs", () => {
  it("names the app's URL, its Cognito client, and still the API's own URL", () => {
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: Json }>;
    expect(text(outputs.AppUrl?.Value)).toMatch(
      /^https:\/\/<[A-Za-z0-9]+\.Outputs\.[A-Za-z0-9]*Distribution[A-Za-z0-9]*DomainName>\/app\/$/,
    );
    expect(text(outputs.WebAppClientId?.Value)).toMatch(/Outputs\.[A-Za-z0-9]*WebAppClient[A-Za-z0-9]*Ref>$/);
    expect(text(outputs.ApiUrl?.Value)).toMatch(
      new RegExp(`^https://<${logicalIdOf(stack.api.restApi)}>\\.execute-api\\.eu-central-1\\.`),
    );
  });
});

describe("resource budget", () => {
  it("adds one resource to the main stack (the nested stack), which stays under CloudFormation's 500", () => {
    const main = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
    const web = Template.fromStack(stack.webApp.nestedStack).toJSON().Resources as Record<string, Resource>;
    expect(Object.keys(web).length).toBeGreaterThan(10);
    const inMain = Object.values(main).filter((resource) =>
      /^(AWS::CloudFront::|Custom::CDKBucketDeployment)/.test(resource.Type),
    );
    expect(inMain).toEqual([]);
    expect(main).toHaveProperty(
      logicalIdOf({ node: { defaultChild: stack.webApp.nestedStack.nestedStackResource } }),
    );
    expect(Object.keys(main).length).toBeLessThan(500);
  });
});

describe("cdk-nag", () => {
  it("reports no unsuppressed AwsSolutions error or warning (the nested web app stack included)", () => {
    const findings = [
      ...Annotations.fromStack(stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ...Annotations.fromStack(stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ];
    expect(findings.map((finding) => `${finding.id}: ${String(finding.entry.data).slice(0, 160)}`)).toEqual(
      [],
    );
  });
});
