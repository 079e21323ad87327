/** GET /openapi.json: this API's OpenAPI 3.1 description (public). */
import { config } from "../../adapters/config.ts";
import { buildOpenApiDocument } from "../../http/openapi/document.ts";
import { httpRoute } from "../../http/pipeline.ts";

export const make = (document: () => object) =>
  httpRoute("get-openapi").handle(async () => ({ status: 200, body: document() }));

// Built on the first request, then kept for the container: the document only changes with a deployment.
let document: object | undefined;

export const handler = make(() => {
  document ??= buildOpenApiDocument(config.serviceName());
  return document;
});
