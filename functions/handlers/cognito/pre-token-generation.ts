/**
 * Cognito's pre-token-generation trigger (V3_0): before Cognito issues a token it asks which
 * claims to add. A machine client (client credentials) gets its tenant's claims; a person who signed
 * in gets the claims of the forwarder they are linked to and the forwarder scope, in the access and ID
 * tokens. A refusal throws (core/use-cases/pre-token-generation.ts), so Cognito issues no token.
 */
import type { PreTokenGenerationV2TriggerEvent, PreTokenGenerationV3TriggerEvent } from "aws-lambda";
import { logger } from "../../adapters/logger.ts";
import { traced } from "../../adapters/tracer.ts";
import {
  type PreTokenGenerationDeps,
  preTokenGeneration,
  type TokenRequester,
} from "../../core/use-cases/pre-token-generation.ts";
import { forwarderUsers, tenants } from "../../wiring.ts";

/** A V3 event: client credentials (machine clients), or a person's sign-in (the V2 shape, version "3"). */
export type PreTokenGenerationEvent = PreTokenGenerationV3TriggerEvent | PreTokenGenerationV2TriggerEvent;

export function requesterOf(event: PreTokenGenerationEvent): TokenRequester {
  const scopes = event.request.scopes ?? [];
  if (event.triggerSource === "TokenGeneration_ClientCredentials")
    return { kind: "client", clientId: event.callerContext.clientId, scopes };
  return { kind: "user", userId: event.request.userAttributes.sub ?? event.userName, scopes };
}

export const make = (deps: () => PreTokenGenerationDeps) => async (event: PreTokenGenerationEvent) => {
  const requester = requesterOf(event);
  const token = await preTokenGeneration(deps(), requester);
  const machine = requester.kind === "client";
  logger.info("token claims added", { requester: requester.kind, role: token.claims.role });
  event.response.claimsAndScopeOverrideDetails = {
    accessTokenGeneration: {
      claimsToAddOrOverride: token.claims,
      ...(token.scopesToAdd.length > 0 ? { scopesToAdd: token.scopesToAdd } : {}),
      ...(token.scopesToSuppress.length > 0 ? { scopesToSuppress: token.scopesToSuppress } : {}),
    },
    ...(machine ? {} : { idTokenGeneration: { claimsToAddOrOverride: token.claims } }),
  };
  return event;
};

export const handler = traced(make(() => ({ tenants: tenants(), users: forwarderUsers() })));
