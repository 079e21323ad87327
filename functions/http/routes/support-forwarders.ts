/**
 * Support's onboarding of forwarders: the tenant, its machine clients (OAuth 2.0 client credentials)
 * and the people who sign in for it. The client components serve the carriers' clients too.
 */
import * as v from "valibot";
import { ForwarderUserRequestSchema, ForwarderUserResponseSchema } from "../schemas/forwarder-users.ts";
import {
  ClientRequestSchema,
  ClientResponseSchema,
  CreatedClientResponseSchema,
  cursorPagedSchema,
  DeletedForwarderResponseSchema,
  ForwarderRequestSchema,
  ForwarderResponseSchema,
  TenantPageRequestSchema,
} from "../schemas/tenants.ts";
import { cursorPageOf } from "./examples.ts";
import { component, type RouteApis } from "./route-api.ts";

export const CURSOR_PAGING =
  " Paged: ?Limit= (1-100, default 100) &Cursor= (the NextCursor of the previous page; null on the last).";
export const IDEMPOTENT = " Idempotent; unknown: 404.";
export const NEW_CLIENT =
  " OAuth 2.0 client credentials for POST /oauth2/token: 201 with ClientId and ClientSecret, the secret " +
  "shown only in this answer. Allowed while the tenant is disabled (no token until it is enabled).";
export const ROTATE = " Rotating a secret: create a new client, switch over, delete the old one.";

const CLIENT_EXAMPLE = {
  ClientId: "4k8q2m7v1n5p9r3t6w0y2b4d6f",
  Name: "Nightly sync",
  Enabled: true,
  CreatedAt: "2026-11-28T09:00:00Z",
};

export const CLIENT_REQUEST = {
  ...component("ClientRequest", ClientRequestSchema, { Name: "Nightly sync" }),
  description: "Name: free text for support, optional.",
};
export const CLIENT = component("Client", ClientResponseSchema, CLIENT_EXAMPLE);
export const CREATED_CLIENT = component("CreatedClient", CreatedClientResponseSchema, {
  ClientId: CLIENT_EXAMPLE.ClientId,
  ClientSecret: "s3cr3t-shown-once-9f2c7a41d0e84b6aa3c5f1e27b9d08c4e6a2f5b1c3d7e9",
  Name: CLIENT_EXAMPLE.Name,
  CreatedAt: CLIENT_EXAMPLE.CreatedAt,
});
export const CLIENT_LIST = component("ClientList", v.object({ Items: v.array(ClientResponseSchema) }), {
  Items: [CLIENT_EXAMPLE],
});

const FORWARDER_EXAMPLE = {
  ForwarderId: "ACMECARGO",
  Name: "Acme Cargo GmbH",
  AgentCode: "1234567",
  AgentCass: "0001",
  AgentStation: "FRA",
  ContactEmail: "ops@forwarder.example",
  Enabled: true,
  CreatedAt: "2026-11-28T09:00:00Z",
  UpdatedAt: "2026-11-28T09:00:00Z",
};
const FORWARDER = component("Forwarder", ForwarderResponseSchema, FORWARDER_EXAMPLE);

const USER_EXAMPLE = {
  UserId: "6c1f8e2a-4b7d-4e3a-9f5c-2d8b0a6e4c13",
  Email: "dispatcher@forwarder.example",
  ForwarderId: "ACMECARGO",
  CreatedAt: "2026-11-28T09:05:00Z",
};
const USER = component("ForwarderUser", ForwarderUserResponseSchema, USER_EXAMPLE);

export const SUPPORT_FORWARDER_ROUTES = {
  "create-forwarder": {
    summary:
      "Onboard a forwarder (enabled): ForwarderId (^[A-Z]{9}$, the ForwarderIdentifier pattern receivers " +
      "validate in every event payload), Name (optional, shown on the route maps it shares), AgentCode " +
      "(7 digits), AgentCass (4 digits), AgentStation (3 capital letters, optional) and ContactEmail. Its " +
      "tokens carry exactly these claims. 409 when the forwarder is already onboarded.",
    tag: "support",
    body: component("ForwarderRequest", ForwarderRequestSchema, {
      ForwarderId: "ACMECARGO",
      Name: "Acme Cargo GmbH",
      AgentCode: "1234567",
      AgentCass: "0001",
      AgentStation: "FRA",
      ContactEmail: "ops@forwarder.example",
    }),
    status: 201,
    response: FORWARDER,
    errors: [409],
  },
  "list-forwarders": {
    summary: `Onboarded forwarders in ForwarderId order.${CURSOR_PAGING}`,
    tag: "support",
    query: TenantPageRequestSchema,
    response: component(
      "ForwarderPage",
      cursorPagedSchema(ForwarderResponseSchema),
      cursorPageOf(FORWARDER_EXAMPLE),
    ),
  },
  "get-forwarder": {
    summary: "One onboarded forwarder (404 otherwise)",
    tag: "support",
    response: FORWARDER,
    errors: [400, 404],
  },
  "delete-forwarder": {
    summary:
      "Offboard a forwarder: each of its clients is deregistered (no new token) and deleted with it, and " +
      "each person signing in for it is removed. Its rules, webhooks and route maps stay. Tokens already " +
      "issued run out within their hour.",
    tag: "support",
    response: component("DeletedForwarder", DeletedForwarderResponseSchema, {
      ...FORWARDER_EXAMPLE,
      DeletedClients: [CLIENT_EXAMPLE.ClientId],
      DeletedUsers: [USER_EXAMPLE.UserId],
    }),
    errors: [400, 404],
  },
  "disable-forwarder": {
    summary: `Switch a forwarder off: none of its clients gets a token.${IDEMPOTENT}`,
    tag: "support",
    response: FORWARDER,
    errors: [400, 404],
  },
  "enable-forwarder": {
    summary: `Switch a forwarder on again.${IDEMPOTENT}`,
    tag: "support",
    response: FORWARDER,
    errors: [400, 404],
  },
  "create-forwarder-client": {
    summary: `A new machine client of the forwarder.${NEW_CLIENT}`,
    tag: "support",
    body: CLIENT_REQUEST,
    status: 201,
    response: CREATED_CLIENT,
    errors: [400, 404],
  },
  "list-forwarder-clients": {
    summary: "The forwarder's machine clients, oldest first, without secrets",
    tag: "support",
    response: CLIENT_LIST,
    errors: [400, 404],
  },
  "create-forwarder-user": {
    summary:
      "A person who signs in to the web app for the forwarder: their tokens carry the forwarder's claims. In AWS Cognito mails the invitation (temporary password); 409 for an e-mail that already signs in.",
    tag: "support",
    body: {
      ...component("ForwarderUserRequest", ForwarderUserRequestSchema, { Email: USER_EXAMPLE.Email }),
      description: "Email: where the invitation goes (stored lower-cased).",
    },
    status: 201,
    response: USER,
    errors: [400, 404, 409],
  },
  "list-forwarder-users": {
    summary: "The people who sign in for the forwarder, oldest first",
    tag: "support",
    response: component("ForwarderUserList", v.object({ Items: v.array(ForwarderUserResponseSchema) }), {
      Items: [USER_EXAMPLE],
    }),
    errors: [400, 404],
  },
  "delete-forwarder-user": {
    summary:
      "Remove a person's sign-in for the forwarder: no new token (tokens already issued run out within their hour)",
    tag: "support",
    response: USER,
    errors: [400, 404],
  },
  "delete-forwarder-client": {
    summary: `Delete one of the forwarder's clients: its next token request gets 401 invalid_client.${ROTATE}`,
    tag: "support",
    response: CLIENT,
    errors: [400, 404],
  },
  "disable-forwarder-client": {
    summary: `Switch one of the forwarder's clients off (no token).${IDEMPOTENT}`,
    tag: "support",
    response: CLIENT,
    errors: [400, 404],
  },
  "enable-forwarder-client": {
    summary: `Switch one of the forwarder's clients on again.${IDEMPOTENT}`,
    tag: "support",
    response: CLIENT,
    errors: [400, 404],
  },
} satisfies RouteApis;
