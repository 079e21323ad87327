/** The document's fixed parts: its tags and the outbound Event payload (a 3.1 `webhooks` entry). */
import type { ApiTag } from "../routes/route-api.ts";
import { componentRef } from "./json-schema.ts";

export const TAGS: { name: ApiTag; description: string }[] = [
  { name: "route maps", description: "Forwarders: trigger, read, search and share route maps; XTD usage" },
  {
    name: "notifications",
    description: "Forwarders: notification rules (e-mail, Url channel) and their deliveries",
  },
  { name: "webhooks", description: "Forwarders: webhooks, their URL verification and deliveries" },
  {
    name: "carriers",
    description: "Carriers: report messages, ONE Record notifications, pull status requests",
  },
  {
    name: "support",
    description: "Support: tenants and their clients, carrier settings, customer endpoints",
  },
  {
    name: "one record",
    description:
      "ONE Record server (API 2.x, JSON-LD): logistics objects and events of AWBs, for ONE Record clients",
  },
  { name: "meta", description: "This description" },
];

/** What we POST to receivers: not an operation of this API. */
export const EVENT_PAYLOAD_WEBHOOK = {
  post: {
    operationId: "event-payload",
    summary: "Event payload: a reported milestone, RMP/CAN, or a Missed/ProActive alert",
    description:
      "POSTed to a Url-channel rule's customer endpoint (with its registered header) and to webhooks " +
      "(Authorization Bearer <Token> when set; Standard Webhooks signature headers when a Psk is set). " +
      "Retried on timeouts, 429 and 5xx.",
    requestBody: {
      required: true,
      content: {
        "application/json": { schema: { $ref: componentRef("EventPayload") } },
        "application/xml": {
          schema: {
            type: "string",
            description: "Webhooks of Type xml: root <Event>, one element per field",
          },
        },
        "text/plain": {
          schema: {
            type: "string",
            description: "Webhooks of Type text: one `Field: value` line per field",
          },
        },
      },
    },
    responses: {
      "200": { description: "Received" },
      "204": { description: "Received" },
    },
  },
};
