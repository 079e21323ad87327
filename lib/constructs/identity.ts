/**
 * Who may call the service, in AWS (issue 12): the Cognito user pool that issues every token.
 *
 * - Machine clients: one app client per tenant client, registered by the support onboarding routes
 *   (functions/adapters/cognito-client-registry.ts: client credentials, the role's scope of the
 *   `routemap` resource server, 60-minute access tokens), tokens from the pool's domain at
 *   `https://<prefix>.auth.<region>.amazoncognito.com/oauth2/token`.
 * - People signing in for a forwarder (the web app, later): pool users linked to a forwarder
 *   (functions/adapters/cognito-user-directory.ts), and the web app's hosted-login client when the
 *   deployment names its callback URLs.
 * - The pre-token-generation trigger (V3_0, which covers client credentials; needs the Essentials
 *   feature plan) adds the tenant's claims from the Tenants table, reading items by key only.
 *
 * The pool follows the data's removal policy: retained, it also gets deletion protection. Outputs:
 * TokenUrl, UserPoolId and BootstrapSupportCommand (the first support credential, bin/bootstrap-support.ts).
 */
import { CfnOutput, Duration, Fn, RemovalPolicy as Removal, type RemovalPolicy, Stack } from "aws-cdk-lib";
import {
  AccountRecovery,
  FeaturePlan,
  LambdaVersion,
  OAuthScope,
  ResourceServerScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  UserPoolOperation,
  type UserPoolResourceServer,
} from "aws-cdk-lib/aws-cognito";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { RESOURCE_SERVER_ID, type ScopedRole, TENANT_SCOPES } from "../../functions/contracts/scopes.ts";
import { PRE_TOKEN_GENERATION } from "../bundle-options.ts";
import type { FunctionBindings } from "../function-bindings.ts";
import { HandlerFunction } from "./handler-function.ts";

export interface IdentityProps {
  /** The data's removal policy: RETAIN keeps the pool (and turns on its deletion protection). */
  removalPolicy: RemovalPolicy;
  /** The Tenants table: named in the bootstrap command; the trigger reads it. */
  tenantsTable: ITable;
  /**
   * Prefix of the pool's Cognito domain (context `cognitoDomainPrefix`); by default the stack name,
   * lower-cased, and the first block of the stack's id (unique per stack and region).
   */
  domainPrefix?: string;
  /** Callback URLs of the web app's hosted login (context `webAppCallbackUrls`); none: no web app client. */
  webAppCallbackUrls?: readonly string[];
}

/** Words Cognito refuses in a domain prefix. */
const RESERVED_PREFIX_WORDS = /aws|amazon|cognito/g;
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Throws naming the context flag when a given prefix cannot be a Cognito domain prefix. */
export function validatedDomainPrefix(prefix: string): string {
  if (!DOMAIN_PREFIX.test(prefix) || new RegExp(RESERVED_PREFIX_WORDS.source).test(prefix))
    throw new Error(
      `cognitoDomainPrefix must be 1-63 lower-case letters, digits or hyphens (not at either end) without "aws", "amazon" or "cognito", got ${JSON.stringify(prefix)}`,
    );
  return prefix;
}

/** The default prefix's readable part: the stack name as a prefix Cognito accepts (at most 54 characters). */
export function domainPrefixBase(stackName: string): string {
  const base = stackName
    .toLowerCase()
    .replace(RESERVED_PREFIX_WORDS, "")
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 54)
    .replace(/-$/, "");
  return base === "" ? "routemap" : base;
}

export class Identity extends Construct {
  readonly userPool: UserPool;
  readonly resourceServer: UserPoolResourceServer;
  readonly domain: UserPoolDomain;
  /** The issuer of the pool's tokens, for the authorizer. */
  readonly issuer: string;
  /** The OAuth 2.0 token endpoint of the pool's domain. */
  readonly tokenUrl: string;
  /** The web app's hosted-login client, when the deployment names callback URLs. */
  readonly webAppClient: UserPoolClient | undefined;
  /** The pre-token-generation trigger, once added (addTokenClaims). */
  tokenTrigger: IFunction | undefined;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const retained = props.removalPolicy === Removal.RETAIN;
    this.userPool = new UserPool(this, "Users", {
      selfSignUpEnabled: false,
      // People sign in by e-mail; machine clients never sign in as users.
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 14,
        requireDigits: true,
        requireLowercase: true,
        requireUppercase: true,
        requireSymbols: true,
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Access-token customization (the V3_0 trigger) needs Essentials or Plus.
      featurePlan: FeaturePlan.ESSENTIALS,
      removalPolicy: props.removalPolicy,
      deletionProtection: retained,
    });
    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: "AwsSolutions-COG2",
        reason:
          "Callers are forwarder and carrier systems (machine clients); MFA for the web app's people comes with its sign-in page.",
      },
      {
        id: "AwsSolutions-COG3",
        reason:
          "Threat protection needs the Plus feature plan, an account-level choice of the operating team.",
      },
      {
        id: "AwsSolutions-COG8",
        reason:
          "Plus feature plan is an account-level choice of the operating team; Essentials covers the trigger.",
      },
    ]);
    this.issuer = this.userPool.userPoolProviderUrl;

    const scopes = new Map<ScopedRole, ResourceServerScope>(
      (Object.entries(TENANT_SCOPES) as Array<[ScopedRole, string]>).map(([role, scope]) => [
        role,
        new ResourceServerScope({
          scopeName: scope.slice(RESOURCE_SERVER_ID.length + 1),
          scopeDescription: `Calls the API as a ${role}`,
        }),
      ]),
    );
    this.resourceServer = this.userPool.addResourceServer("RouteMapApi", {
      identifier: RESOURCE_SERVER_ID,
      scopes: [...scopes.values()],
    });

    // Default prefix: the stack name and the first block of the stack's UUID (known at deploy time).
    const stackIdBlock = Fn.select(0, Fn.split("-", Fn.select(2, Fn.split("/", stack.stackId))));
    this.domain = this.userPool.addDomain("Domain", {
      cognitoDomain: {
        domainPrefix: props.domainPrefix
          ? validatedDomainPrefix(props.domainPrefix)
          : `${domainPrefixBase(stack.stackName)}-${stackIdBlock}`,
      },
    });
    this.tokenUrl = `${this.domain.baseUrl()}/oauth2/token`;

    const callbackUrls = [...(props.webAppCallbackUrls ?? [])];
    const forwarderScope = scopes.get("forwarder");
    this.webAppClient =
      callbackUrls.length > 0 && forwarderScope
        ? this.userPool.addClient("WebApp", {
            generateSecret: false,
            authFlows: { userSrp: true },
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [
                OAuthScope.OPENID,
                OAuthScope.EMAIL,
                OAuthScope.resourceServer(this.resourceServer, forwarderScope),
              ],
              callbackUrls,
            },
            supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
            accessTokenValidity: Duration.minutes(60),
            idTokenValidity: Duration.minutes(60),
            preventUserExistenceErrors: true,
          })
        : undefined;

    new CfnOutput(stack, "TokenUrl", {
      description: "OAuth 2.0 token endpoint (client credentials, HTTP Basic)",
      value: this.tokenUrl,
    });
    new CfnOutput(stack, "UserPoolId", {
      description: "Cognito user pool of tenant clients and forwarder users",
      value: this.userPool.userPoolId,
    });
    new CfnOutput(stack, "BootstrapSupportCommand", {
      description: "Creates the first support client (run once, with credentials of this account)",
      value: `npm run bootstrap-support -- --user-pool-id ${this.userPool.userPoolId} --tenants-table ${props.tenantsTable.tableName} --region ${stack.region}`,
    });
    if (this.webAppClient) {
      new CfnOutput(stack, "WebAppClientId", {
        description: "App client of the web app's hosted login (authorization code)",
        value: this.webAppClient.userPoolClientId,
      });
    }
  }

  /**
   * The pre-token-generation trigger (V3_0): a function with its entry in lib/function-access.ts (the
   * Tenants table, by key), attached to the pool. After the bindings exist, which name the pool.
   */
  addTokenClaims(bindings: FunctionBindings, logRetention: RetentionDays): IFunction {
    const fn = new HandlerFunction(this, "PreTokenGeneration", {
      handlerPath: `${PRE_TOKEN_GENERATION.folder}/${PRE_TOKEN_GENERATION.handler}`,
      environment: bindings.environmentFor(PRE_TOKEN_GENERATION.handler),
      // Cognito waits 5 seconds for a trigger.
      timeout: Duration.seconds(5),
      logRetention,
    }).fn;
    bindings.grant(PRE_TOKEN_GENERATION.handler, fn);
    this.userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, fn, LambdaVersion.V3_0);
    this.tokenTrigger = fn;
    return fn;
  }
}
