/**
 * The carrier-message formats `POST /carrier/messages` reads, as plain data: the one list of their
 * content types. The route table takes its accepted content types from here (and with it API Gateway,
 * the local runner and the 415 check of the HTTP pipeline); the core's format registry
 * (functions/core/carrier-messages/registry.ts) maps each format to its parser, and its type asks for a
 * parser for every format listed here. A format is a wire syntax; the message types inside it (FSU,
 * FWB, FFR, ... in Cargo-IMP; XFSU in Cargo-XML) are dispatched by the format's own module.
 */
export const CARRIER_FORMATS = [
  { format: "cargo-imp", contentTypes: ["text/plain"] },
  { format: "cargo-xml", contentTypes: ["application/xml", "text/xml"] },
  { format: "json", contentTypes: ["application/json"] },
  { format: "one-record", contentTypes: ["application/ld+json"] },
] as const;

export type CarrierFormat = (typeof CARRIER_FORMATS)[number]["format"];
export type CarrierContentType = (typeof CARRIER_FORMATS)[number]["contentTypes"][number];

/** Every content type a carrier may send, in the order of CARRIER_FORMATS (the 415 answer lists them so). */
export const CARRIER_CONTENT_TYPES: readonly CarrierContentType[] = CARRIER_FORMATS.flatMap(
  (entry) => entry.contentTypes,
);
