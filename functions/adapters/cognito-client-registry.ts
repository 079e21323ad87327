/**
 * Machine clients as Cognito app clients: one app client per tenant client, with a generated
 * secret, the client-credentials flow only, the tenant role's scope of the `routemap` resource server
 * and 60-minute access tokens. Cognito keeps and verifies the secret (nothing of it is stored by us);
 * the pre-token-generation trigger adds the tenant's claims to each token it issues.
 */
import {
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  ResourceNotFoundException,
} from "@aws-sdk/client-cognito-identity-provider";
import type { ClientRegistry, IssuedClientCredential } from "../core/ports/tenants.ts";
import { CLIENT_TOKEN_LIFETIME_SECONDS, type TenantRef, tenantIdOf } from "../core/tenants/tenants.ts";
import { cognito } from "./aws-clients.ts";
import { config } from "./config.ts";

/** Cognito's ClientName: at most 128 characters of `[\w\s+=,.@-]`. */
const CLIENT_NAME_MAX = 128;

/** `forwarder-DEMOFWD ops integration`: tenant kind and id, then support's name for it. */
export function appClientName(tenant: TenantRef, name: string | null): string {
  const label = `${tenant.kind}-${tenantIdOf(tenant)}${name ? ` ${name}` : ""}`;
  return label.replace(/[^\w\s+=,.@-]/g, "_").slice(0, CLIENT_NAME_MAX);
}

export function cognitoClientRegistry(
  userPoolId: string = config.userPoolId(),
  client: () => CognitoIdentityProviderClient = cognito,
): ClientRegistry {
  return {
    async register({ tenant, scope, name }): Promise<IssuedClientCredential> {
      const created = await client().send(
        new CreateUserPoolClientCommand({
          UserPoolId: userPoolId,
          ClientName: appClientName(tenant, name),
          GenerateSecret: true,
          AllowedOAuthFlows: ["client_credentials"],
          AllowedOAuthFlowsUserPoolClient: true,
          AllowedOAuthScopes: [scope],
          // No user sign-in through this client: only refresh is left of the explicit flows.
          ExplicitAuthFlows: ["ALLOW_REFRESH_TOKEN_AUTH"],
          AccessTokenValidity: CLIENT_TOKEN_LIFETIME_SECONDS / 60,
          TokenValidityUnits: { AccessToken: "minutes" },
          EnableTokenRevocation: true,
          PreventUserExistenceErrors: "ENABLED",
        }),
      );
      const clientId = created.UserPoolClient?.ClientId;
      const clientSecret = created.UserPoolClient?.ClientSecret;
      if (!clientId || !clientSecret) throw new Error("Cognito created an app client without id or secret");
      return { clientId, clientSecret, secretHash: null };
    },

    async deregister(clientId: string): Promise<void> {
      try {
        await client().send(new DeleteUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: clientId }));
      } catch (error) {
        // Already gone: deregistering is idempotent.
        if (error instanceof ResourceNotFoundException) return;
        throw error;
      }
    },
  };
}
