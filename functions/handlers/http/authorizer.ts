/**
 * API Gateway TOKEN authorizer: verifies the bearer JWT, hands the caller's claims and the token's
 * `exp` to the routes as authorizer context, refuses with the literal "Unauthorized". Imports no functions/http, so its
 * bundle carries the JWT verifier and the logger only.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { logger } from "../../adapters/logger.ts";
import type { createTokenVerifier } from "../../adapters/token-verifier.ts";
import { traced } from "../../adapters/tracer.ts";
import { identityToContext } from "../../core/identity.ts";
import { tokenVerifier } from "../../wiring.ts";

type Verify = ReturnType<typeof createTokenVerifier>;

/**
 * Allows every method of the API so a cached decision serves all routes; roles are checked per route.
 * A method ARN is `arn:aws:execute-api:<region>:<account>:<api id>/<stage>/<METHOD>/<path>`: the first
 * segment already ends with the API id, so the stage is the second (taking the third would allow only
 * the first request's method, and a cached decision would refuse the same token's next POST).
 */
function wholeApiArn(methodArn: string): string {
  const [apiArn, stage] = methodArn.split("/");
  return `${apiArn}/${stage}/*/*`;
}

export const make =
  (verifier: () => Verify) =>
  async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const result = await verifier()(event.authorizationToken);
    if (!result.ok) {
      logger.info("token refused", { reason: result.reason });
      throw new Error("Unauthorized");
    }
    const claims = identityToContext(result.identity);
    const Resource = wholeApiArn(event.methodArn);
    return {
      principalId: claims.forwarder_id ?? claims.carrier_prefix ?? claims.sub ?? "caller",
      policyDocument: {
        Version: "2012-10-17",
        Statement: [{ Action: "execute-api:Invoke", Effect: "Allow", Resource }],
      },
      // The token's exp rides along: the routes refuse it once exp passes, though this answer is cached.
      context: { ...claims, exp: result.expiresAt },
    };
  };

export const handler = traced(make(tokenVerifier));
