/**
 * People who sign in to the web app for a forwarder, as Cognito users (ForwarderUserDirectory port):
 * AdminCreateUser with the e-mail as user name (the pool signs in by e-mail), marked verified, and
 * Cognito's invitation with a temporary password. The user's `sub` is the id the forwarder link and the
 * pre-token-generation trigger use.
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  type CognitoIdentityProviderClient,
  UserNotFoundException,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { ForwarderUserExistsError } from "../core/errors.ts";
import type { ForwarderUserDirectory } from "../core/ports/tenants.ts";
import { cognito } from "./aws-clients.ts";
import { config } from "./config.ts";

export function cognitoUserDirectory(
  userPoolId: string = config.userPoolId(),
  client: () => CognitoIdentityProviderClient = cognito,
): ForwarderUserDirectory {
  return {
    async createUser({ email }) {
      try {
        const created = await client().send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: email,
            UserAttributes: [
              { Name: "email", Value: email },
              { Name: "email_verified", Value: "true" },
            ],
            DesiredDeliveryMediums: ["EMAIL"],
          }),
        );
        const userId = created.User?.Attributes?.find((attribute) => attribute.Name === "sub")?.Value;
        if (!userId) throw new Error("Cognito created a user without a sub");
        return { userId };
      } catch (error) {
        if (error instanceof UsernameExistsException) throw new ForwarderUserExistsError(email);
        throw error;
      }
    },

    async deleteUser(userId) {
      try {
        // With e-mail sign-in, Cognito accepts the user's sub as its user name.
        await client().send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: userId }));
      } catch (error) {
        if (error instanceof UserNotFoundException) return;
        throw error;
      }
    },
  };
}
