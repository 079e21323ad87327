/** GET /openapi.json: this API's OpenAPI 3.1 description (public), its server the base URL the caller used. */
import { config } from "../../adapters/config.ts";
import { buildOpenApiDocument } from "../../http/openapi/document.ts";
import { httpRoute } from "../../http/pipeline.ts";

export const make = (document: (serverUrl: string) => object) =>
  httpRoute("get-openapi").handle(async ({ baseUrl }) => ({ status: 200, body: document(baseUrl) }));

// Built once per container and base URL (the document only changes with a deployment); the last kept.
let built: { serverUrl: string; document: object } | undefined;

export const handler = make((serverUrl) => {
  if (built?.serverUrl !== serverUrl)
    built = {
      serverUrl,
      document: buildOpenApiDocument({ serviceName: config.serviceName(), serverUrl }),
    };
  return built.document;
});
