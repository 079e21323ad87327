/** A forwarder's webhooks: registration, URL verification, and their deliveries. */
import { WebhookRequestSchema, WebhookUpdateSchema } from "../../core/notifications/index.ts";
import { WebhookResponseSchema } from "../schemas/notifications.ts";
import { PageRequestSchema, pagedSchema } from "../schemas/paging.ts";
import { pageOf } from "./examples.ts";
import { DELIVERY_PAGE, OWNER_ONLY, PAGING, REPLAY } from "./notifications.ts";
import { component, type RouteApis } from "./route-api.ts";

/** Documented in the OpenAPI document (body description of the webhook routes) and the README. */
const WEBHOOK_VERIFICATION_DOC =
  "Enable true means enabled: the webhook receives events whether or not its Url is verified. URL " +
  "verification is an optional ownership proof, run on creation, on a PUT that changes Url (or " +
  'switches on a webhook a 410 switched off) and on POST .../webhook/{id}/verify: the service POSTs { "Type": ' +
  '"WebhookVerification", "Challenge": "<random>", "WebhookId": <id> } with header ' +
  "x-route-map-challenge: <random> (and the webhook's bearer Token / Standard Webhooks signature when " +
  "set). The receiver proves it by answering 2xx within 5 s with the bare challenge value as the body " +
  "(text/plain; a JSON string is accepted too). An echo of the request (its JSON body, or any JSON " +
  "object) does not pass, so an endpoint that merely reflects requests cannot. The outcome is shown as " +
  "Verified and LastVerification (and header x-webhook-verification: verified, pending or failed; " +
  "<reason>). Unknown and response-only members (Id, ForwarderIdentifier, Enabled, Verified, ...) are " +
  "ignored; Enabled stands in for Enable when only it is sent. Token and Psk are shown in full only in " +
  "the creating response, masked (last 4 characters) afterwards; the masked value sent back keeps the " +
  "stored secret, except with a changed Url, which needs the secrets in full again (or null: 400 " +
  "otherwise). Url: no spaces or control characters. At most MAX_WEBHOOKS_PER_FORWARDER (default 50) " +
  "webhooks per forwarder (409 beyond).";

const WEBHOOK_REQUEST_EXAMPLE = {
  Event: "DEP,ARR,RMP",
  Url: "https://tms.forwarder.example/hooks/route-map",
  Enable: true,
  Type: "json" as const,
  AWB: "020",
  Psk: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
};
const WEBHOOK_REQUEST = {
  ...component("WebhookRequest", WebhookRequestSchema, WEBHOOK_REQUEST_EXAMPLE),
  description: WEBHOOK_VERIFICATION_DOC,
};
// A PUT takes what a POST takes: one component while the core's two schemas are one object.
const WEBHOOK_UPDATE = {
  ...component("WebhookRequest", WebhookUpdateSchema, WEBHOOK_REQUEST_EXAMPLE),
  description: WEBHOOK_VERIFICATION_DOC,
};

const WEBHOOK_EXAMPLE = {
  Id: 7,
  ForwarderIdentifier: "ACMECARGO",
  Event: "DEP,ARR,RMP",
  Url: "https://tms.forwarder.example/hooks/route-map",
  Token: null,
  Enabled: true,
  Type: "json" as const,
  Psk: "••••LaSw",
  AWB: "020",
  Verified: true,
  LastVerification: { Outcome: "verified" as const, At: "2026-11-28T09:20:01Z", Detail: null },
  LastDelivery: {
    DeliveryId: "02012345675-4-0:webhook-7",
    Event: "DEP",
    Status: "delivered" as const,
    At: "2026-11-28T13:41:07Z",
    HttpStatus: 204,
    Detail: "",
  },
};
const WEBHOOK = component("Webhook", WebhookResponseSchema, WEBHOOK_EXAMPLE);

export const WEBHOOK_ROUTES = {
  "create-webhook": {
    summary:
      "Register a webhook; its Url is verified at once (challenge echo, see the body description). A Url " +
      "the service may not call (production: https and public addresses only) is a 422 naming Url.",
    tag: "webhooks",
    body: WEBHOOK_REQUEST,
    response: WEBHOOK,
    errors: [409, 422],
  },
  "list-webhooks": {
    summary: `Your webhooks in id order, secrets masked.${PAGING}`,
    tag: "webhooks",
    query: PageRequestSchema,
    response: component("WebhookPage", pagedSchema(WebhookResponseSchema), pageOf(WEBHOOK_EXAMPLE)),
  },
  "get-webhook": {
    summary: `One webhook, secrets masked; header x-webhook-verification.${OWNER_ONLY}`,
    tag: "webhooks",
    response: WEBHOOK,
    errors: [400, 404],
  },
  "update-webhook": {
    summary:
      "Replace a webhook (absent or echoed masked Token/Psk keep the stored ones, null removes them); a " +
      `changed Url needs the secrets again and is verified again.${OWNER_ONLY}`,
    tag: "webhooks",
    body: WEBHOOK_UPDATE,
    response: WEBHOOK,
    errors: [400, 404, 422],
  },
  "delete-webhook": {
    summary: `Delete a webhook; 200 with the deleted webhook (secrets masked).${OWNER_ONLY}`,
    tag: "webhooks",
    response: WEBHOOK,
    errors: [400, 404],
  },
  "verify-webhook": {
    summary:
      'Run the URL challenge again (POST { "Type": "WebhookVerification", "Challenge", "WebhookId" }, ' +
      "header x-route-map-challenge; answer 2xx with the bare challenge value as the body); 200 with the " +
      `webhook, its Verified and LastVerification, and header x-webhook-verification.${OWNER_ONLY}`,
    tag: "webhooks",
    response: WEBHOOK,
    errors: [400, 404],
  },
  "list-webhook-deliveries": {
    summary: `The webhook's deliveries (newest first, kept 30 days) with their attempt log.${PAGING}${OWNER_ONLY}`,
    tag: "webhooks",
    query: PageRequestSchema,
    response: DELIVERY_PAGE,
    errors: [400, 404],
  },
  "replay-webhook-delivery": {
    summary:
      "Send a delivered or parked delivery again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "webhooks",
    status: 202,
    response: REPLAY,
    errors: [400, 404, 409],
  },
} satisfies RouteApis;
