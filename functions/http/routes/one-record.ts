/**
 * The ONE Record server's routes (API 2.x): JSON-LD documents, `application/ld+json`. Their answers are
 * JSON-LD whose terms the context names, so the schemas here only say they are objects; the ONE Record
 * API ontology is their real schema.
 */
import * as v from "valibot";
import { component, type RouteApis } from "./route-api.ts";

const JsonLdSchema = v.pipe(
  v.looseObject({ "@context": v.unknown(), "@id": v.string(), "@type": v.string() }),
  v.description("A JSON-LD document of the ONE Record data model 3.3 or API ontology 2.3."),
);

const INSTANT = v.pipe(
  v.string(),
  v.regex(
    /^(\d{8}T\d{6}Z|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))$/,
    "must be an instant such as 20270314T120000Z or 2027-03-14T12:00:00Z",
  ),
);

/** GET/HEAD {base}/logistics-objects/{id}: the object with its links embedded, or as it was at an instant. */
export const ObjectQuerySchema = v.object({
  embedded: v.optional(v.picklist(["true", "false"])),
  at: v.optional(INSTANT),
});

const COUNT = v.pipe(v.string(), v.regex(/^\d{1,4}$/, "must be a whole number from 0 to 9999"));

/** GET {lo}/logistics-events: the API's filters. */
export const EventQuerySchema = v.object({
  "event-code": v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be a status code such as DEP"))),
  "created-after": v.optional(INSTANT),
  "created-before": v.optional(INSTANT),
  "occurred-after": v.optional(INSTANT),
  "occurred-before": v.optional(INSTANT),
  sort: v.optional(v.picklist(["asc", "desc"])),
  limit: v.optional(COUNT),
  skip: v.optional(COUNT),
});

const BASE = "https://api.example.com/onerecord";
const WAYBILL = `${BASE}/logistics-objects/02012345-6751-8000-8000-000000000000`;

const objectExample = {
  "@context": { cargo: "https://onerecord.iata.org/ns/cargo#" },
  "@id": WAYBILL,
  "@type": "cargo:Waybill",
  "cargo:waybillPrefix": "020",
  "cargo:waybillNumber": "12345675",
};

const ACCESS =
  "A forwarder reads the objects of the AWBs it may read on the REST API (owner, XTD), a carrier those of " +
  "its own prefix; any other AWB's id is 403, an id the service never gave 404.";

export const ONE_RECORD_ROUTES = {
  "one-record-server-information": {
    summary:
      "ONE Record ServerInformation: data holder, API versions 2.0.0 to 2.3.0, content types, ontologies",
    tag: "one record",
    response: component("OneRecordServerInformation", JsonLdSchema, {
      "@context": { api: "https://onerecord.iata.org/ns/api#" },
      "@id": `${BASE}/`,
      "@type": "api:ServerInformation",
    }),
  },
  "one-record-get-object": {
    summary:
      "A logistics object (Waybill, Shipment, TransportMovement, Location) with Type, Revision, " +
      "Latest-Revision and Last-Modified headers; ?embedded=true writes linked objects in place; ?at= the " +
      `revision of that instant (30 days of snapshots; 404 before the first); awb-{prefix}-{serial} answers 307 to the Waybill. ${ACCESS}`,
    tag: "one record",
    query: ObjectQuerySchema,
    response: component("OneRecordLogisticsObject", JsonLdSchema, objectExample),
    errors: [404],
  },
  "one-record-head-object": {
    summary: "The headers of GET of the same logistics object, without its body",
    tag: "one record",
    query: ObjectQuerySchema,
    errors: [404],
  },
  "one-record-list-events": {
    summary:
      "The object's LogisticsEvents as an api:Collection (actuals ACTUAL, the plan PLANNED), filtered by " +
      "event-code, created-after/-before, occurred-after/-before, sorted by eventDate, limit and skip",
    tag: "one record",
    query: EventQuerySchema,
    response: component("OneRecordEventCollection", JsonLdSchema, {
      "@context": { api: "https://onerecord.iata.org/ns/api#" },
      "@id": `${WAYBILL}/logistics-events`,
      "@type": "api:Collection",
    }),
    errors: [404],
  },
  "one-record-post-event": {
    summary:
      "A carrier's ONE Record client adds a LogisticsEvent to a Waybill, Shipment or TransportMovement of its " +
      "own prefix: applied exactly like the same status posted as Cargo-IMP to /carrier/messages; 201 with " +
      "the event's Location",
    tag: "one record",
    body: {
      raw: true,
      description: "One cargo:LogisticsEvent (data model 3.0 to 3.3); eventFor is the object posted to.",
    },
    status: 201,
    errors: [404, 409, 422],
  },
  "one-record-get-event": {
    summary: "One LogisticsEvent of a logistics object",
    tag: "one record",
    response: component("OneRecordLogisticsEvent", JsonLdSchema, {
      "@context": { cargo: "https://onerecord.iata.org/ns/cargo#" },
      "@id": `${WAYBILL}/logistics-events/dep-fra-1-actual`,
      "@type": "cargo:LogisticsEvent",
    }),
    errors: [404],
  },
} satisfies RouteApis;
