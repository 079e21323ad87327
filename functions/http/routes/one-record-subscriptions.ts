/**
 * The ONE Record server's subscription routes (API 2.x publish/subscribe): a forwarder's client
 * subscribes to our logistics objects, reads and revokes its SubscriptionRequest and sees (and
 * replays) the notifications' deliveries; a carrier's server asks which Subscription we want.
 * Answers are JSON-LD; their real schema is the ONE Record API ontology.
 */
import * as v from "valibot";
import { PageRequestSchema } from "../schemas/paging.ts";
import { DELIVERY_PAGE, OWNER_ONLY, PAGING, REPLAY } from "./notifications.ts";
import { component, type RouteApis } from "./route-api.ts";

const BASE = "https://api.example.com/onerecord";

/** GET {base}/subscriptions: read by the handler, which answers a missing or unknown topic with 400. */
export const ProposalQuerySchema = v.object({
  topicType: v.optional(v.pipe(v.string(), v.maxLength(200))),
  topic: v.optional(v.pipe(v.string(), v.maxLength(2000))),
});

/** A new schema object per component: the document names each schema once. */
const jsonLd = () =>
  v.pipe(
    v.looseObject({ "@context": v.unknown(), "@id": v.string(), "@type": v.string() }),
    v.description("A JSON-LD document of the ONE Record API ontology 2.3."),
  );

export const ONE_RECORD_SUBSCRIPTION_ROUTES = {
  "one-record-subscription-create": {
    summary:
      "Subscribe a forwarder's ONE Record client to one Waybill, Shipment or TransportMovement " +
      "(LOGISTICS_OBJECT_IDENTIFIER, AWBs it may read: owner or XTD, else 403) or to every object of a type " +
      "it may see (LOGISTICS_OBJECT_TYPE); notifications go to {hasSubscriber's server}/notifications. " +
      "Extension: rmt:hasEventCode narrows event notifications to those status codes. 201 with the " +
      "Location of the SubscriptionRequest (accepted at once).",
    tag: "one record",
    body: { raw: true, description: "One api:Subscription (JSON-LD)." },
    status: 201,
  },
  "one-record-subscription-proposal": {
    summary:
      "The Subscription the service wants when a carrier's ONE Record server offers one (?topicType=&topic=): " +
      "we subscribe as the data holder, notifications to our {base}/notifications",
    tag: "one record",
    query: ProposalQuerySchema,
    response: component("OneRecordSubscription", jsonLd(), {
      "@context": { api: "https://onerecord.iata.org/ns/api#" },
      "@id": `${BASE}/subscriptions/proposed`,
      "@type": "api:Subscription",
    }),
  },
  "one-record-action-request-get": {
    summary: `A SubscriptionRequest: its Subscription, status (REQUEST_ACCEPTED or REQUEST_REVOKED) and times.${OWNER_ONLY}`,
    tag: "one record",
    response: component("OneRecordSubscriptionRequest", jsonLd(), {
      "@context": { api: "https://onerecord.iata.org/ns/api#" },
      "@id": `${BASE}/action-requests/1`,
      "@type": "api:SubscriptionRequest",
    }),
    errors: [400, 404],
  },
  "one-record-action-request-delete": {
    summary: `Revoke a SubscriptionRequest: no notification is matched from then on; 204.${OWNER_ONLY}`,
    tag: "one record",
    status: 204,
    errors: [400, 404],
  },
  "one-record-action-request-deliveries": {
    summary: `The subscription's notifications' deliveries with their attempt log (parked ones too).${PAGING}${OWNER_ONLY}`,
    tag: "one record",
    query: PageRequestSchema,
    response: DELIVERY_PAGE,
    errors: [400, 404],
  },
  "one-record-action-request-replay": {
    summary:
      "Send a delivered or parked notification again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "one record",
    status: 202,
    response: REPLAY,
    errors: [400, 404, 409],
  },
} satisfies RouteApis;
