/** The carriers' routes: reporting messages, ONE Record notifications, and their pull queue of status requests. */
import { CarrierJsonMessageSchema } from "../../core/carrier-messages/index.ts";
import { OneRecordNotificationResultSchema } from "../schemas/onerecord.ts";
import { PageRequestSchema, pagedSchema } from "../schemas/paging.ts";
import { IngestResultSchema } from "../schemas/route-maps.ts";
import { PulledStatusRequestSchema } from "../schemas/status-requests.ts";
import { pageOf } from "./examples.ts";
import { component, type RouteApis } from "./route-api.ts";

const APPLIED_EXAMPLE = [{ AwbNumber: "020-12345675", Changed: true, Events: ["DEP"] }];

const CARRIER_JSON_MESSAGE = component("CarrierJsonMessage", CarrierJsonMessageSchema, {
  Type: "DEP",
  AirlinePrefix: "020",
  AwbNumber: "12345675",
  Origin: "FRA",
  Destination: "JFK",
  Station: "FRA",
  Time: "2026-11-28T13:41",
  Flight: { CarrierCode: "LH", FlightNumber: "400", Date: "2026-11-28" },
  Quantity: { Pieces: 10, WeightCode: "K", Weight: 250 },
});

const PULLED_REQUEST_EXAMPLE = {
  RequestId: "SR-1795857164000-02012345675",
  AwbNumber: "020-12345675",
  Format: "cargo-imp" as const,
  ContentType: "text/plain; charset=utf-8",
  Message: "FSR/1\n020-12345675FRAJFK\n",
  RequestedAt: "2026-11-28T09:12:44Z",
  AvailableAt: "2026-11-28T09:12:44Z",
};

export const CARRIER_ROUTES = {
  "ingest-carrier-message": {
    summary:
      "Report carrier messages: Cargo-IMP text (FSU, FWB, FFR/FFA), Cargo-XML XFSU, the JSON event form, " +
      "or ONE Record LogisticsEvents (JSON-LD)",
    tag: "carriers",
    body: {
      // The handler passes the raw body to the parsers so errors name the line: the schema documents the JSON form.
      raw: true,
      json: CARRIER_JSON_MESSAGE,
      description:
        "text/plain: Cargo-IMP FSU, FSA, FWB, FFR, FFA (several messages may share a body; Type-B " +
        "envelope lines and SOH/STX/ETX are skipped). application/xml or text/xml: XFSU. " +
        "application/json: the schema below. application/ld+json: ONE Record LogisticsEvents (data model " +
        "3.x: one event, a @graph or array of them, or an api:Collection); eventCode a StatusCode code " +
        "(IRI or plain), eventDate, eventLocation (IATA code in locationCodes), eventFor the Waybill (or " +
        "Shipment/Piece leading to it) embedded with waybillPrefix, waybillNumber, departureLocation, " +
        "arrivalLocation; only ACTUAL events (or without eventTimeType) are applied, PLANNED/ESTIMATED/" +
        "EXPECTED/REQUESTED are skipped; codes beyond the milestones are kept as history; errors name the " +
        "JSON path as written. At most 100 messages (status lines, reported statuses) per " +
        "body in every format; times with a year within 366 days of receipt; weights 0 or 0.001 to " +
        "1,000,000 kg (2,204,623 lb), volumes 0 or 0.001 to 100,000 m³. Every AWB must carry the " +
        "calling carrier's prefix. Errors are 400 problem+json naming the line (422 for a well-formed line " +
        "naming a station or date we cannot place), and nothing is stored. " +
        "Each message is stored in its own transaction: a body stored only in part (lost write races or " +
        "the function's 10 s deadline 409 with Retry-After, a change too large 422, a fault 500) answers " +
        "with an `Applied` member listing what was stored, shaped like the success body; resend from the " +
        "message named in errors[0].field.",
    },
    response: component("IngestResult", IngestResultSchema, { Applied: APPLIED_EXAMPLE }),
    errors: [409, 422],
  },
  "receive-onerecord-notification": {
    summary:
      "A carrier's ONE Record server (publisher) sends a Notification (JSON-LD, API 2.x): for " +
      "LOGISTICS_EVENT_RECEIVED (api:hasLogisticsEvent) or LOGISTICS_OBJECT_UPDATED (api:hasLogisticsObject: " +
      "its /logistics-events list) the service GETs the LogisticsEvents from the carrier's OneRecord.ServerUrl " +
      "(only IRIs under it; bearer OneRecord.Token; https and public addresses only) and applies them like " +
      "application/ld+json on /carrier/messages; 200 with what was fetched and applied. Other event types: " +
      "200, nothing fetched. Events with codes outside the StatusCode list are skipped. No ONE Record server " +
      "configured or an IRI outside it: 422; a fetched event we cannot use: 422 naming its IRI, line and " +
      "path; the publisher down or answering an error: 503/502 with Retry-After (send the notification " +
      "again); nothing is stored then.",
    tag: "carriers",
    body: {
      raw: true,
      description:
        "A ONE Record Notification (JSON-LD): api:hasEventType and api:hasLogisticsEvent or api:hasLogisticsObject.",
    },
    response: component("OneRecordNotificationResult", OneRecordNotificationResultSchema, {
      EventType: "LOGISTICS_EVENT_RECEIVED",
      Fetched: ["https://onerecord.carrier.example/logistics-events/7f3a"],
      Applied: APPLIED_EXAMPLE,
    }),
    errors: [409, 422, 502, 503],
  },
  "list-carrier-requests": {
    summary:
      "The caller's pending status requests (channel Pull), oldest first: each stays until acked (30 days at most)",
    tag: "carriers",
    query: PageRequestSchema,
    response: component(
      "PulledStatusRequestPage",
      pagedSchema(PulledStatusRequestSchema),
      pageOf(PULLED_REQUEST_EXAMPLE),
    ),
  },
  "ack-carrier-request": {
    summary:
      "Take a status request off the caller's pull queue: 204; 404 for an unknown or another carrier's id",
    tag: "carriers",
    status: 204,
    errors: [400, 404],
  },
} satisfies RouteApis;
