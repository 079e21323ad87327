/** GET /onerecord: the ONE Record server's api:ServerInformation. */
import { serverInformation } from "../../core/one-record-server/server-info.ts";
import { httpDate, jsonLdHeaders, oneRecordLinks } from "../../http/one-record.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline } from "../../wiring.ts";

/** When what the server information says last changed (its versions and ontologies). */
const DESCRIBED_AT = "2026-12-02T00:00:00Z";

export const make = (pipeline?: Pipeline) =>
  httpRoute("one-record-server-information", {}, pipeline).handle(async ({ baseUrl }) => ({
    status: 200,
    body: serverInformation(oneRecordLinks(baseUrl).base, "Route Map Tracker"),
    headers: jsonLdHeaders({
      type: "https://onerecord.iata.org/ns/api#ServerInformation",
      "last-modified": httpDate(DESCRIBED_AT),
    }),
  }));

export const handler = make(httpPipeline);
