/**
 * The stack's identity (lib/constructs/identity.ts): the Cognito user pool (Essentials, kept
 * with deletion protection when data is retained), the `routemap` resource server and its three scopes,
 * the domain and its token URL, the pre-token-generation trigger (V3_0) reading only items of the
 * Tenants table by key, the onboarding functions' rights on this pool only, the web app's hosted-login
 * client (always, since the web app: its own URL plus any configured callback URLs), the outputs, and
 * cdk-nag with no unsuppressed finding.
 */
import { App, Aspects, type CfnElement, type Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { TABLES } from "../../functions/contracts/resources.ts";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { domainPrefixBase, validatedDomainPrefix } from "../../lib/constructs/identity.ts";
import {
  TOKEN_RATE_WINDOW_SECONDS,
  TOKEN_REQUESTS_PER_ADDRESS,
} from "../../lib/constructs/token-endpoint-firewall.ts";
import { FUNCTION_ACCESS } from "../../lib/function-access.ts";
import { RouteMapTrackerStack, type RouteMapTrackerStackProps } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Resource = {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

interface Built {
  stack: RouteMapTrackerStack;
  template: Template;
}

function build(id: string, props: RouteMapTrackerStackProps): Built {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new RouteMapTrackerStack(app, id, {
    env: { account: "123456789012", region: "eu-central-1" },
    senderAddress: "notifications@forwarder.example",
    ...props,
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  return { stack, template: wholeTemplate(stack) };
}

let retained: Built;
let throwaway: Built;

beforeAll(() => {
  retained = build("Retained", {
    retainData: true,
    cognitoDomainPrefix: "routemap-prod",
    webAppCallbackUrls: ["https://app.forwarder.example/callback"],
  });
  throwaway = build("Throwaway", { retainData: false });
}, 240_000);

const resourcesOf = (built: Built, type: string) =>
  Object.entries(built.template.findResources(type)) as Array<[string, Resource]>;

function onlyResource(built: Built, type: string): [string, Resource] {
  const found = resourcesOf(built, type);
  expect(found, type).toHaveLength(1);
  return found[0] as [string, Resource];
}

const logicalIdOf = (stack: Stack, fn: IFunction) => stack.getLogicalId(fn.node.defaultChild as CfnElement);

function triggerOf(built: Built): IFunction {
  const fn = built.stack.identity.tokenTrigger;
  if (!fn) throw new Error("no pre-token-generation trigger");
  return fn;
}

function statementsOf(built: Built, fn: IFunction): Statement[] {
  const roleRef = JSON.stringify({ Ref: built.stack.getLogicalId(fn.role?.node.defaultChild as CfnElement) });
  return resourcesOf(built, "AWS::IAM::Policy")
    .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(roleRef))
    .flatMap(
      ([, policy]) =>
        (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [],
    );
}

const actions = (statements: Statement[]) => statements.flatMap((statement) => [statement.Action].flat());

function environmentOf(built: Built, fn: IFunction): Record<string, unknown> {
  const resource = built.template.toJSON().Resources[logicalIdOf(built.stack, fn)] as Resource;
  return (
    (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}
  );
}

const userPoolId = (built: Built) => onlyResource(built, "AWS::Cognito::UserPool")[0];
const tenantsTableId = (built: Built) =>
  resourcesOf(built, "AWS::DynamoDB::Table").find(([id]) =>
    new RegExp(`^Data${TABLES.tenants.id}[0-9A-F]{8}$`).test(id),
  )?.[0];

describe("user pool", () => {
  it("is on the Essentials plan (access-token customization), with no self sign-up and e-mail sign-in", () => {
    for (const built of [retained, throwaway]) {
      const [, pool] = onlyResource(built, "AWS::Cognito::UserPool");
      expect(pool.Properties).toMatchObject({
        UserPoolTier: "ESSENTIALS",
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        UsernameAttributes: ["email"],
      });
    }
  });

  it("is retained with deletion protection when data is retained, and neither for a throwaway stack", () => {
    const [, kept] = onlyResource(retained, "AWS::Cognito::UserPool");
    expect(kept).toMatchObject({ DeletionPolicy: "Retain", UpdateReplacePolicy: "Retain" });
    expect(kept.Properties?.DeletionProtection).toBe("ACTIVE");
    const [, dropped] = onlyResource(throwaway, "AWS::Cognito::UserPool");
    expect(dropped).toMatchObject({ DeletionPolicy: "Delete" });
    expect(dropped.Properties?.DeletionProtection).toBe("INACTIVE");
  });

  it("has the resource server `routemap` with exactly the forwarder, carrier and support scopes", () => {
    const [, server] = onlyResource(retained, "AWS::Cognito::UserPoolResourceServer");
    expect(server.Properties).toMatchObject({
      Identifier: "routemap",
      UserPoolId: { Ref: userPoolId(retained) },
    });
    const scopes = ((server.Properties?.Scopes as Array<{ ScopeName: string }> | undefined) ?? []).map(
      (scope) => scope.ScopeName,
    );
    expect(scopes.sort()).toEqual(["carrier", "forwarder", "support"]);
  });

  it("authorizes with the pool as the token issuer", () => {
    expect(environmentOf(retained, retained.stack.api.authorizerFunction).JWT_ISSUER).toEqual({
      "Fn::GetAtt": [userPoolId(retained), "ProviderURL"],
    });
  });
});

describe("domain and token URL", () => {
  it("uses the configured prefix", () => {
    const [, domain] = onlyResource(retained, "AWS::Cognito::UserPoolDomain");
    expect(domain.Properties).toMatchObject({
      Domain: "routemap-prod",
      UserPoolId: { Ref: userPoolId(retained) },
    });
  });

  it("derives a default prefix from the stack name and the stack's own id", () => {
    const [, domain] = onlyResource(throwaway, "AWS::Cognito::UserPoolDomain");
    const prefix = JSON.stringify(domain.Properties?.Domain);
    expect(prefix).toContain('"throwaway-"');
    expect(prefix).toContain('{"Ref":"AWS::StackId"}');
  });

  it("outputs the token URL of the domain", () => {
    const output = retained.template.findOutputs("TokenUrl").TokenUrl as { Value: unknown };
    expect(JSON.stringify(output.Value)).toMatch(
      /https:\/\/".*"Ref":"IdentityUsersDomain[0-9A-F]+".*\.auth\.eu-central-1\.amazoncognito\.com\/oauth2\/token"/,
    );
  });

  it("outputs the user pool id and the whole first-support-credential command", () => {
    for (const built of [retained, throwaway]) {
      const outputs = built.template.findOutputs("*");
      expect(outputs.UserPoolId?.Value).toEqual({ Ref: userPoolId(built) });
      const command = JSON.stringify(outputs.BootstrapSupportCommand?.Value);
      expect(command).toContain("npm run bootstrap-support -- --user-pool-id ");
      expect(command).toContain(`{"Ref":"${userPoolId(built)}"}`);
      expect(command).toContain(" --tenants-table ");
      expect(command).toContain(`{"Ref":"${tenantsTableId(built)}"}`);
      expect(command).toContain(" --region eu-central-1");
    }
  });
});

describe("pre-token-generation trigger", () => {
  it("is attached as V3_0 (covers client-credentials tokens) and runs the cognito handler", () => {
    for (const built of [retained, throwaway]) {
      const [, pool] = onlyResource(built, "AWS::Cognito::UserPool");
      expect(pool.Properties?.LambdaConfig).toEqual({
        PreTokenGenerationConfig: {
          LambdaArn: { "Fn::GetAtt": [logicalIdOf(built.stack, triggerOf(built)), "Arn"] },
          LambdaVersion: "V3_0",
        },
      });
      built.template.hasResourceProperties("AWS::Lambda::Permission", {
        Action: "lambda:InvokeFunction",
        FunctionName: { "Fn::GetAtt": [logicalIdOf(built.stack, triggerOf(built)), "Arn"] },
        Principal: "cognito-idp.amazonaws.com",
      });
    }
    expect(FUNCTION_ACCESS["pre-token-generation"]).toEqual({ tables: { tenants: "get" } });
  });

  it("may only read Tenants items by key (GetItem) and decrypt them: no query, scan or write", () => {
    const statements = statementsOf(retained, triggerOf(retained));
    const dynamo = statements.filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith("dynamodb:")),
    );
    expect(actions(dynamo)).toEqual(["dynamodb:GetItem"]);
    expect(dynamo.flatMap((statement) => [statement.Resource].flat())).toEqual([
      { "Fn::GetAtt": [tenantsTableId(retained), "Arn"] },
    ]);
    const rest = actions(statements)
      .filter((action) => !action.startsWith("dynamodb:") && !action.startsWith("xray:"))
      .sort();
    expect(rest).toEqual(["kms:Decrypt"]);
    expect(JSON.stringify(statements)).not.toContain("cognito-idp:");
  });

  it("knows only the Tenants table and nothing of the pool (no dependency cycle)", () => {
    const environment = environmentOf(retained, triggerOf(retained));
    expect(environment[TABLES.tenants.envVar]).toEqual({ Ref: tenantsTableId(retained) });
    const tableVars: string[] = Object.values(TABLES).map((table) => table.envVar);
    expect(Object.keys(environment).filter((name) => tableVars.includes(name))).toEqual([
      TABLES.tenants.envVar,
    ]);
    expect(environment.USER_POOL_ID).toBeUndefined();
  });
});

describe("onboarding rights on the pool", () => {
  it("grants app-client and user management on this pool only, to exactly the functions whose entry asks", () => {
    const functions = new Map<string, IFunction>([
      ["authorizer", retained.stack.api.authorizerFunction],
      ...retained.stack.api.functions,
      ...retained.stack.eventFunctions,
      ["pre-token-generation", triggerOf(retained)],
    ]);
    const pool = { "Fn::GetAtt": [userPoolId(retained), "Arn"] };
    for (const [handler, fn] of functions) {
      const access = FUNCTION_ACCESS[handler] ?? {};
      const cognito = statementsOf(retained, fn).filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith("cognito-idp:")),
      );
      const expected = [
        ...(access.manageClients
          ? ["cognito-idp:CreateUserPoolClient", "cognito-idp:DeleteUserPoolClient"]
          : []),
        ...(access.manageUsers ? ["cognito-idp:AdminCreateUser", "cognito-idp:AdminDeleteUser"] : []),
      ];
      expect(actions(cognito).sort(), handler).toEqual(expected.sort());
      for (const statement of cognito) expect(statement.Resource, handler).toEqual(pool);
      expect(environmentOf(retained, fn).USER_POOL_ID, handler).toEqual(
        expected.length > 0 ? { Ref: userPoolId(retained) } : undefined,
      );
    }
  });
});

describe("web app hosted login", () => {
  it("has the web app's authorization-code client with openid and the forwarder scope, its own /app/ URL and the configured ones as callback URLs", () => {
    const clients = resourcesOf(retained, "AWS::Cognito::UserPoolClient");
    expect(clients).toHaveLength(1);
    const properties = clients[0]?.[1].Properties;
    expect(properties).toMatchObject({
      AllowedOAuthFlows: ["code"],
      AllowedOAuthFlowsUserPoolClient: true,
      GenerateSecret: false,
      SupportedIdentityProviders: ["COGNITO"],
    });
    const callbacks = properties?.CallbackURLs as unknown[];
    expect(callbacks).toHaveLength(2);
    expect(JSON.stringify(callbacks[0])).toMatch(
      /"https:\/\/",\{"Fn::GetAtt":\["Distribution[0-9A-F]+","DomainName"\]\},"\/app\/"/,
    );
    expect(callbacks[1]).toBe("https://app.forwarder.example/callback");
    const scopes = JSON.stringify(properties?.AllowedOAuthScopes);
    expect(scopes).toContain('"openid"');
    expect(scopes).toContain("/forwarder");
    expect(scopes).not.toContain("/support");
    expect(retained.template.findOutputs("WebAppClientId")).toHaveProperty("WebAppClientId");
  });

  it("has only the web app's client otherwise: machine clients are created by support at run time", () => {
    const clients = resourcesOf(throwaway, "AWS::Cognito::UserPoolClient");
    expect(clients).toHaveLength(1);
    expect(clients[0]?.[1].Properties?.CallbackURLs).toHaveLength(1);
  });
});

describe("settings", () => {
  it("refuses a domain prefix Cognito would refuse, naming the flag", () => {
    for (const bad of ["Upper", "-edge", "edge-", "my-cognito-pool", "aws-tracker", "a_b", "x".repeat(64)]) {
      expect(() => validatedDomainPrefix(bad), bad).toThrow(/cognitoDomainPrefix/);
    }
    expect(validatedDomainPrefix("routemap-prod")).toBe("routemap-prod");
  });

  it("makes a stack name a valid default prefix", () => {
    expect(domainPrefixBase("RouteMapTracker")).toBe("routemaptracker");
    expect(domainPrefixBase("Cognito_AWS_Stack")).toBe("stack");
    expect(domainPrefixBase("AWS")).toBe("routemap");
    expect(domainPrefixBase("S".repeat(80))).toHaveLength(54);
  });

  it("reads cognitoDomainPrefix and webAppCallbackUrls from context", () => {
    const props = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);
    expect(
      props({
        cognitoDomainPrefix: "rm-test",
        webAppCallbackUrls: "https://a.example/cb, http://localhost:5173/cb",
      }),
    ).toMatchObject({
      cognitoDomainPrefix: "rm-test",
      webAppCallbackUrls: ["https://a.example/cb", "http://localhost:5173/cb"],
    });
    expect(props({ webAppCallbackUrls: ["https://a.example/cb"] }).webAppCallbackUrls).toEqual([
      "https://a.example/cb",
    ]);
    expect(props({}).webAppCallbackUrls).toBeUndefined();
    expect(() => props({ webAppCallbackUrls: "http://app.example/cb" })).toThrow(/webAppCallbackUrls/);
  });
});

describe("token endpoint throttle", () => {
  it("associates a WAF web ACL with the pool, in the main stack, limiting token requests per source address", () => {
    for (const built of [retained, throwaway]) {
      const main = Template.fromStack(built.stack);
      const [aclId, acl] = Object.entries(main.findResources("AWS::WAFv2::WebACL"))[0] ?? [];
      expect(Object.keys(main.findResources("AWS::WAFv2::WebACL"))).toHaveLength(1);
      expect(acl?.Properties).toMatchObject({
        Scope: "REGIONAL",
        DefaultAction: { Allow: {} },
        Rules: [
          {
            Name: "TokenRequestsPerAddress",
            Action: {
              Block: {
                CustomResponse: {
                  ResponseCode: 429,
                  ResponseHeaders: [{ Name: "Retry-After", Value: String(TOKEN_RATE_WINDOW_SECONDS) }],
                },
              },
            },
            Statement: {
              RateBasedStatement: {
                Limit: TOKEN_REQUESTS_PER_ADDRESS,
                EvaluationWindowSec: TOKEN_RATE_WINDOW_SECONDS,
                AggregateKeyType: "IP",
                ScopeDownStatement: {
                  ByteMatchStatement: {
                    FieldToMatch: { UriPath: {} },
                    PositionalConstraint: "STARTS_WITH",
                    SearchString: "/oauth2/token",
                  },
                },
              },
            },
          },
        ],
      });
      const bodies = acl?.Properties?.CustomResponseBodies as Record<string, { Content: string }> | undefined;
      const body = bodies?.tooManyTokenRequests;
      expect(JSON.parse(body?.Content ?? "{}")).toMatchObject({ error: "temporarily_unavailable" });
      main.hasResourceProperties("AWS::WAFv2::WebACLAssociation", {
        ResourceArn: { "Fn::GetAtt": [userPoolId(built), "Arn"] },
        WebACLArn: { "Fn::GetAtt": [aclId, "Arn"] },
      });
    }
  });
});

describe("cdk-nag", () => {
  it("reports no unsuppressed AwsSolutions error or warning", () => {
    for (const built of [retained, throwaway]) {
      const findings = [
        ...Annotations.fromStack(built.stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
        ...Annotations.fromStack(built.stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ];
      expect(findings.map((finding) => `${finding.id}: ${String(finding.entry.data).slice(0, 160)}`)).toEqual(
        [],
      );
    }
  });
});
