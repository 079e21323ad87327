/**
 * API Gateway TOKEN authorizer: verifies the bearer JWT (aws-jwt-verify) and hands the caller's claims
 * to the route handlers as authorizer context. Refusal is the literal "Unauthorized" error, which API
 * Gateway answers with its UNAUTHORIZED gateway response (problem+json, see the stack).
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { createTokenVerifier, tokenVerifierConfigFromEnv } from "../../adapters/token-verifier.ts";
import { identityToContext } from "../../core/identity.ts";
import { logger } from "./kit.ts";

const verify = createTokenVerifier(tokenVerifierConfigFromEnv());

/** Allows every method of the API so a cached decision serves all routes; roles are checked per route. */
function wholeApiArn(methodArn: string): string {
  const [arnPrefix, apiId, stage] = methodArn.split("/");
  return `${arnPrefix}/${apiId}/${stage}/*/*`;
}

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const result = await verify(event.authorizationToken);
  if (!result.ok) {
    logger.info("token refused", { reason: result.reason });
    throw new Error("Unauthorized");
  }
  const context = identityToContext(result.identity);
  return {
    principalId: context.forwarder_id ?? context.carrier_prefix ?? context.sub ?? "caller",
    policyDocument: {
      Version: "2012-10-17",
      Statement: [{ Action: "execute-api:Invoke", Effect: "Allow", Resource: wholeApiArn(event.methodArn) }],
    },
    context,
  };
}
