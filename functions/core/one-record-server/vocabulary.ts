/**
 * What the service publishes in ONE Record: the API (2.x) and data-model (3.x) versions, the JSON-LD
 * context every document carries, and the code lists it names. Output is in the current data model
 * (3.3, whose code lists live under `ns/code-lists/`); input of 3.0 to 3.3 is read by the parsers of
 * functions/core/carrier-messages/one-record/.
 */
import { API_NS, CARGO_NS } from "../carrier-messages/one-record/json-ld.ts";

export { API_NS, CARGO_NS };

export const XSD_NS = "http://www.w3.org/2001/XMLSchema#";
export const CODE_LISTS_NS = "https://onerecord.iata.org/ns/code-lists/";
/** Our own terms where the data model has none (a shipment's piece count, a subscription's event-code filter). */
export const EXTENSION_NS = "https://route-map-tracker.dev/ns/onerecord#";

export const JSON_LD = "application/ld+json";
/** API versions served: every 2.x release so far (the API ontology of the 2026-07 standard is 2.3.0). */
export const SUPPORTED_API_VERSIONS = ["2.0.0", "2.1.0", "2.2.0", "2.3.0"] as const;
/** The data model written (and 3.0 to 3.3 read). */
export const CARGO_ONTOLOGY = "https://onerecord.iata.org/ns/cargo/3.3.0";
export const API_ONTOLOGY = "https://onerecord.iata.org/ns/api/2.3.0";
export const CODE_LISTS_ONTOLOGY = "https://onerecord.iata.org/ns/code-lists/1.1.0";
export const CONTENT_LANGUAGE = "en-US";

/** The context of every document we write: prefixed names, so framing expands them exactly. */
export const CONTEXT = {
  cargo: CARGO_NS,
  api: API_NS,
  xsd: XSD_NS,
  rmt: EXTENSION_NS,
} as const;

export type JsonLd = { [key: string]: unknown };

export const dateTime = (utc: string) => ({ "@type": "xsd:dateTime", "@value": utc });
export const ref = (iri: string) => ({ "@id": iri });

/** A StatusCode code-list element (3.1 onwards): `code-lists/StatusCode#DEP`. */
export const statusCodeIri = (code: string) => `${CODE_LISTS_NS}StatusCode#${code}`;
/** A MeasurementUnitCode element: KGM, LBR, MTQ. */
export const unitIri = (code: string) => `${CODE_LISTS_NS}MeasurementUnitCode#${code}`;

/** FWB and LAT are route-map milestones of no IATA code list: our own code-list elements. */
export const OWN_MILESTONE_CODES: ReadonlySet<string> = new Set(["FWB", "LAT"]);
export const OWN_CODE_LIST_NAME = "Route Map Tracker milestones";
