/**
 * The Cognito adapters' requests, against a recording stand-in for the SDK client: an app client per
 * tenant client (secret, client credentials only, the one scope, 60-minute access tokens), idempotent
 * deregistration, users created by e-mail with their sub returned, a known e-mail refused as 409.
 */
import {
  type CognitoIdentityProviderClient,
  ResourceNotFoundException,
  UserNotFoundException,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { describe, expect, it } from "vitest";
import { appClientName, cognitoClientRegistry } from "../../../functions/adapters/cognito-client-registry.ts";
import { cognitoUserDirectory } from "../../../functions/adapters/cognito-user-directory.ts";
import { ForwarderUserExistsError } from "../../../functions/core/errors.ts";

interface Sent {
  command: string;
  input: Record<string, unknown>;
}

/** A client whose `send` records each command and answers with `answer` (or throws it). */
function recordingClient(answer: (command: string) => unknown) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ command: command.constructor.name, input: command.input });
      const result = answer(command.constructor.name);
      if (result instanceof Error) throw result;
      return result;
    },
  } as unknown as CognitoIdentityProviderClient;
  return { sent, client: () => client };
}

const exception = <T>(Type: new (options: { message: string; $metadata: object }) => T) =>
  new Type({ message: "from Cognito", $metadata: {} });

describe("cognitoClientRegistry", () => {
  it("creates a client-credentials app client with a secret and only the tenant's scope", async () => {
    const cognito = recordingClient(() => ({
      UserPoolClient: { ClientId: "4example5", ClientSecret: "secret" },
    }));
    const issued = await cognitoClientRegistry("eu-central-1_Pool1", cognito.client).register({
      tenant: { kind: "forwarder", forwarderId: "DEMOFWD" },
      scope: "routemap/forwarder",
      name: "ops integration",
    });
    expect(issued).toEqual({ clientId: "4example5", clientSecret: "secret", secretHash: null });
    expect(cognito.sent).toEqual([
      {
        command: "CreateUserPoolClientCommand",
        input: expect.objectContaining({
          UserPoolId: "eu-central-1_Pool1",
          ClientName: "forwarder-DEMOFWD ops integration",
          GenerateSecret: true,
          AllowedOAuthFlows: ["client_credentials"],
          AllowedOAuthFlowsUserPoolClient: true,
          AllowedOAuthScopes: ["routemap/forwarder"],
          AccessTokenValidity: 60,
          TokenValidityUnits: { AccessToken: "minutes" },
        }),
      },
    ]);
  });

  it("fails rather than return a credential without a secret", async () => {
    const cognito = recordingClient(() => ({ UserPoolClient: { ClientId: "4example5" } }));
    await expect(
      cognitoClientRegistry("eu-central-1_Pool1", cognito.client).register({
        tenant: { kind: "carrier", carrierPrefix: "020" },
        scope: "routemap/carrier",
        name: null,
      }),
    ).rejects.toThrow(/without id or secret/);
  });

  it("names app clients within Cognito's characters and length", () => {
    expect(appClientName({ kind: "carrier", carrierPrefix: "020" }, null)).toBe("carrier-020");
    expect(appClientName({ kind: "support", subject: "ops" }, "bootstrap")).toBe("support-ops bootstrap");
    const name = appClientName({ kind: "forwarder", forwarderId: "F1" }, `a/b#${"x".repeat(200)}`);
    expect(name).toMatch(/^[\w\s+=,.@-]{1,128}$/);
  });

  it("deregisters idempotently: an app client already gone is not an error", async () => {
    const gone = recordingClient(() => exception(ResourceNotFoundException));
    await expect(
      cognitoClientRegistry("eu-central-1_Pool1", gone.client).deregister("4example5"),
    ).resolves.toBeUndefined();
    expect(gone.sent).toEqual([
      {
        command: "DeleteUserPoolClientCommand",
        input: { UserPoolId: "eu-central-1_Pool1", ClientId: "4example5" },
      },
    ]);
    const failing = recordingClient(() => new Error("throttled"));
    await expect(cognitoClientRegistry("eu-central-1_Pool1", failing.client).deregister("x")).rejects.toThrow(
      "throttled",
    );
  });
});

describe("cognitoUserDirectory", () => {
  it("creates a verified user by e-mail, invited by mail, and returns its sub", async () => {
    const cognito = recordingClient(() => ({
      User: {
        Attributes: [
          { Name: "email", Value: "anna@forwarder.example" },
          { Name: "sub", Value: "5f0c-sub" },
        ],
      },
    }));
    const created = await cognitoUserDirectory("eu-central-1_Pool1", cognito.client).createUser({
      email: "anna@forwarder.example",
    });
    expect(created).toEqual({ userId: "5f0c-sub" });
    expect(cognito.sent[0]).toEqual({
      command: "AdminCreateUserCommand",
      input: {
        UserPoolId: "eu-central-1_Pool1",
        Username: "anna@forwarder.example",
        UserAttributes: [
          { Name: "email", Value: "anna@forwarder.example" },
          { Name: "email_verified", Value: "true" },
        ],
        DesiredDeliveryMediums: ["EMAIL"],
      },
    });
  });

  it("answers a known e-mail with ForwarderUserExistsError, and deletes idempotently", async () => {
    const exists = recordingClient(() => exception(UsernameExistsException));
    await expect(
      cognitoUserDirectory("eu-central-1_Pool1", exists.client).createUser({
        email: "anna@forwarder.example",
      }),
    ).rejects.toBeInstanceOf(ForwarderUserExistsError);
    const gone = recordingClient(() => exception(UserNotFoundException));
    await expect(
      cognitoUserDirectory("eu-central-1_Pool1", gone.client).deleteUser("5f0c-sub"),
    ).resolves.toBeUndefined();
    expect(gone.sent[0]).toEqual({
      command: "AdminDeleteUserCommand",
      input: { UserPoolId: "eu-central-1_Pool1", Username: "5f0c-sub" },
    });
  });
});
