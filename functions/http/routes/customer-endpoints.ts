/** Support's registry of forwarders' Url-channel endpoints (the NotifyTo of Url rules). */
import {
  CustomerEndpointRequestSchema,
  CustomerEndpointUpdateSchema,
} from "../../core/notifications/index.ts";
import {
  CustomerEndpointResponseSchema,
  DeletedCustomerEndpointResponseSchema,
  ForceQuerySchema,
} from "../schemas/notifications.ts";
import { PageRequestSchema } from "../schemas/paging.ts";
import { CUSTOMER_ENDPOINT_EXAMPLE, CUSTOMER_ENDPOINT_PAGE, PAGING } from "./notifications.ts";
import { component, type RouteApis } from "./route-api.ts";

const ENDPOINT = component("CustomerEndpoint", CustomerEndpointResponseSchema, CUSTOMER_ENDPOINT_EXAMPLE);

export const CUSTOMER_ENDPOINT_ROUTES = {
  "register-customer-endpoint": {
    summary:
      "Register a forwarder's Url-channel endpoint and its header; the answer's Id (GUID) is the NotifyTo " +
      "of that forwarder's Url rules. HeaderValue is shown in full only in this response.",
    tag: "support",
    body: component("CustomerEndpointRequest", CustomerEndpointRequestSchema, {
      ForwarderIdentifier: "ACMECARGO",
      Url: CUSTOMER_ENDPOINT_EXAMPLE.Url,
      HeaderName: "apiKey",
      HeaderValue: "k7Yq2vN8pR4tW1zB6dF0hJ3m9f3a",
    }),
    response: ENDPOINT,
    errors: [422],
  },
  "list-customer-endpoints": {
    summary: `Registered customer endpoints in registration order, header values masked.${PAGING}`,
    tag: "support",
    query: PageRequestSchema,
    response: CUSTOMER_ENDPOINT_PAGE,
  },
  "update-customer-endpoint": {
    summary:
      "Replace an endpoint's Url, HeaderName and HeaderValue (e.g. rotate the header value); the Id and " +
      "ForwarderIdentifier stay (sent ones are ignored). The masked HeaderValue of a GET keeps the stored " +
      "value, unless the Url changes. Header value masked in the answer. Unknown Id: 404.",
    tag: "support",
    body: component("CustomerEndpointUpdate", CustomerEndpointUpdateSchema, {
      Url: CUSTOMER_ENDPOINT_EXAMPLE.Url,
      HeaderName: "apiKey",
      HeaderValue: CUSTOMER_ENDPOINT_EXAMPLE.HeaderValue,
    }),
    response: ENDPOINT,
    errors: [400, 404, 422],
  },
  "delete-customer-endpoint": {
    summary:
      "Delete an endpoint. 409 while enabled Url rules send to it (the detail names them); with " +
      "?force=true those rules are switched off first (DisabledRules lists them). Unknown Id: 404.",
    tag: "support",
    query: ForceQuerySchema,
    response: component("DeletedCustomerEndpoint", DeletedCustomerEndpointResponseSchema, {
      ...CUSTOMER_ENDPOINT_EXAMPLE,
      DisabledRules: [12],
    }),
    errors: [400, 404, 409],
  },
} satisfies RouteApis;
