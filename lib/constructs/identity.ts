/**
 * Who may call the service, in AWS: the Cognito user pool that issues every token.
 *
 * - Machine clients: one app client per tenant client, registered by the support onboarding routes
 *   (functions/adapters/cognito-client-registry.ts: client credentials, the role's scope of the
 *   `routemap` resource server, 60-minute access tokens), tokens from the pool's domain at
 *   `https://<prefix>.auth.<region>.amazoncognito.com/oauth2/token`.
 * - People signing in for a forwarder (the web app): pool users linked to a forwarder
 *   (functions/adapters/cognito-user-directory.ts), and the web app's hosted-login client
 *   (addWebAppClient, built with the web app: lib/constructs/web-app.ts).
 * - The pre-token-generation trigger (V3_0, which covers client credentials; needs the Essentials
 *   feature plan) adds the tenant's claims from the Tenants table, reading items by key only.
 *
 * - The token endpoint's throttle per source address: a WAF web ACL on the pool
 *   (lib/constructs/token-endpoint-firewall.ts).
 *
 * The pool follows the data's removal policy: retained, it also gets deletion protection. Outputs:
 * TokenUrl, UserPoolId, BootstrapSupportCommand (the first support credential, bin/bootstrap-support.ts)
 * and WebAppClientId.
 */
import { CfnOutput, Duration, Fn, RemovalPolicy as Removal, type RemovalPolicy, Stack } from "aws-cdk-lib";
import {
  AccountRecovery,
  FeaturePlan,
  LambdaVersion,
  OAuthScope,
  ResourceServerScope,
  UserPool,
  UserPoolClient,
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
import { TokenEndpointFirewall } from "./token-endpoint-firewall.ts";

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
  /**
   * Callback and sign-out URLs of the web app's hosted login besides the app's own (context
   * `webAppCallbackUrls`): a custom domain in front of the distribution, a developer's localhost.
   */
  webAppCallbackUrls?: readonly string[];
}

/** The OAuth scopes of the web app's client, in the order the app asks for them. */
const WEB_APP_SCOPES = (server: UserPoolResourceServer, forwarder: ResourceServerScope) => [
  OAuthScope.OPENID,
  OAuthScope.resourceServer(server, forwarder),
];

/** What the web app asks Cognito for (its config.json `Scopes`): openid and the forwarder scope. */
export const WEB_APP_SCOPE_NAMES = `openid ${TENANT_SCOPES.forwarder}`;

function missingScope(role: ScopedRole): never {
  throw new Error(`functions/contracts/scopes.ts names no ${role} scope`);
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
  /** The web app's hosted-login client, once added (addWebAppClient). */
  webAppClient: UserPoolClient | undefined;
  /** The resource server's forwarder scope: what a person signed in for a forwarder may call. */
  private readonly forwarderScope: ResourceServerScope;
  /** Callback and sign-out URLs of the web app beyond its own (context webAppCallbackUrls). */
  private readonly extraWebAppUrls: readonly string[];
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
    // Cognito's token endpoint has no throttle of its own for wrong secrets: WAF holds each address.
    new TokenEndpointFirewall(this, "TokenEndpointFirewall", { userPool: this.userPool });

    this.forwarderScope = scopes.get("forwarder") ?? missingScope("forwarder");
    this.extraWebAppUrls = [...(props.webAppCallbackUrls ?? [])];

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
  }

  /**
   * The web app's hosted-login client: public (no secret: it runs in the browser), authorization code
   * only (the app sends a PKCE challenge), signing people in with the pool's own users, asking for
   * `openid` and the forwarder scope. The app's own URL (`https://<distribution>/app/`) is its callback
   * and sign-out URL, plus any the deployment names (context webAppCallbackUrls: a custom domain, a
   * developer's localhost). Built in `scope` (the web app's nested stack), after the distribution that
   * names its URL; the pre-token-generation trigger puts the linked forwarder's claims into its tokens.
   */
  addWebAppClient(scope: Construct, appUrl: string): UserPoolClient {
    const urls = [appUrl, ...this.extraWebAppUrls];
    const client = new UserPoolClient(scope, "WebAppClient", {
      userPool: this.userPool,
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [...WEB_APP_SCOPES(this.resourceServer, this.forwarderScope)],
        callbackUrls: urls,
        logoutUrls: urls,
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: Duration.minutes(60),
      idTokenValidity: Duration.minutes(60),
      // A browser keeps its refresh token: a working day, not Cognito's default 30 days.
      refreshTokenValidity: Duration.hours(12),
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
    this.webAppClient = client;
    new CfnOutput(Stack.of(this), "WebAppClientId", {
      description: "App client of the web app's hosted login (authorization code with PKCE)",
      value: client.userPoolClientId,
    });
    return client;
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
