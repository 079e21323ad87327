/**
 * The token endpoint's throttle in AWS. `/oauth2/token` is Cognito's (the user pool's domain), so no
 * code of ours runs before it answers, and Cognito does not lock a client out after wrong secrets. A
 * WAF web ACL associated with the user pool (WAF inspects the pool's managed-login and OAuth endpoints)
 * holds each source address to TOKEN_REQUESTS_PER_ADDRESS token requests per evaluation window: past
 * it, 429 with Retry-After and an RFC 6749-style JSON body, until the address's rate falls below the
 * limit. WAF counts requests, not failures (it does not see Cognito's answer): a client needs a token
 * about once an hour, so the limit leaves room for many clients behind one address. A per-client-id
 * rule is not possible at the edge: the client id travels inside the Basic credentials (with the
 * secret) or the form body, neither of which a rate-based rule can aggregate on; the local runner's
 * endpoint, which sees the outcome, throttles failures per client id as well (bin/local/token-throttle.ts).
 */
import { Stack } from "aws-cdk-lib";
import type { IUserPool } from "aws-cdk-lib/aws-cognito";
import { CfnWebACL, CfnWebACLAssociation } from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";

/** Token requests one source address may make per evaluation window. */
export const TOKEN_REQUESTS_PER_ADDRESS = 100;
/** WAF's evaluation window of the rate (one of 60, 120, 300, 600 seconds). */
export const TOKEN_RATE_WINDOW_SECONDS = 300;
/** The path of Cognito's token endpoint on the pool's domain. */
export const TOKEN_ENDPOINT_PATH = "/oauth2/token";

export interface TokenEndpointFirewallProps {
  userPool: IUserPool;
}

export class TokenEndpointFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: TokenEndpointFirewallProps) {
    super(scope, id);
    const metric = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${Stack.of(this).stackName}-${name}`.replace(/[^\w-]/g, "-").slice(0, 128),
    });
    this.webAcl = new CfnWebACL(this, "WebAcl", {
      scope: "REGIONAL",
      description: "Throttles OAuth 2.0 token requests per source address",
      defaultAction: { allow: {} },
      visibilityConfig: metric("user-pool"),
      customResponseBodies: {
        tooManyTokenRequests: {
          contentType: "APPLICATION_JSON",
          content: JSON.stringify({
            error: "temporarily_unavailable",
            error_description: `Too many token requests from this address; retry after ${TOKEN_RATE_WINDOW_SECONDS} seconds.`,
          }),
        },
      },
      rules: [
        {
          name: "TokenRequestsPerAddress",
          priority: 0,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: "tooManyTokenRequests",
                responseHeaders: [{ name: "Retry-After", value: String(TOKEN_RATE_WINDOW_SECONDS) }],
              },
            },
          },
          statement: {
            rateBasedStatement: {
              limit: TOKEN_REQUESTS_PER_ADDRESS,
              evaluationWindowSec: TOKEN_RATE_WINDOW_SECONDS,
              aggregateKeyType: "IP",
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: "STARTS_WITH",
                  searchString: TOKEN_ENDPOINT_PATH,
                  textTransformations: [{ priority: 0, type: "LOWERCASE" }],
                },
              },
            },
          },
          visibilityConfig: metric("token-requests-per-address"),
        },
      ],
    });
    new CfnWebACLAssociation(this, "UserPool", {
      resourceArn: props.userPool.userPoolArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
