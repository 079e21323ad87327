/** GET {base}/: the api:ServerInformation of the service's ONE Record server. */
import {
  API_ONTOLOGY,
  CARGO_ONTOLOGY,
  CODE_LISTS_ONTOLOGY,
  CONTENT_LANGUAGE,
  CONTEXT,
  JSON_LD,
  type JsonLd,
  SUPPORTED_API_VERSIONS,
} from "./vocabulary.ts";

export function serverInformation(base: string, dataHolderName: string): JsonLd {
  const ontologies = [CARGO_ONTOLOGY, API_ONTOLOGY, CODE_LISTS_ONTOLOGY];
  return {
    "@context": CONTEXT,
    "@id": `${base}/`,
    "@type": "api:ServerInformation",
    // The data holder is the service itself: it publishes what carriers reported to it.
    "api:hasDataHolder": {
      "@id": `${base}/#data-holder`,
      "@type": "cargo:Company",
      "cargo:name": dataHolderName,
    },
    "api:hasServerEndpoint": { "@type": "xsd:anyURI", "@value": base },
    "api:hasSupportedApiVersion": [...SUPPORTED_API_VERSIONS],
    "api:hasSupportedContentType": [JSON_LD],
    "api:hasSupportedEncoding": ["gzip"],
    "api:hasSupportedLanguage": [CONTENT_LANGUAGE],
    "api:hasSupportedOntology": ontologies.map((iri) => ({ "@type": "xsd:anyURI", "@value": iri })),
    "api:hasSupportedOntologyVersion": ontologies.map((iri) => ({ "@type": "xsd:anyURI", "@value": iri })),
  };
}

/** ONE Record writes instants as `20190926T075830Z` (ISO 8601 basic) or extended; UTC ISO, or null. */
export function parseInstant(text: string): string | null {
  const basic = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  const iso = basic ? `${basic[1]}-${basic[2]}-${basic[3]}T${basic[4]}:${basic[5]}:${basic[6]}Z` : text;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(iso)) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
