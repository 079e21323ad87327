/**
 * The OAuth 2.0 resource server and its scopes, one per role: plain data the CDK stack (Cognito resource
 * server, app clients) and the runtime (authorizer, token endpoint, trigger) share.
 */
export type ScopedRole = "forwarder" | "carrier" | "support";

/** Resource server identifier the scopes belong to. */
export const RESOURCE_SERVER_ID = "routemap";

/** OAuth 2.0 scopes of the resource server `routemap`, one per role. */
export const TENANT_SCOPES: Readonly<Record<ScopedRole, string>> = {
  forwarder: "routemap/forwarder",
  carrier: "routemap/carrier",
  support: "routemap/support",
};
