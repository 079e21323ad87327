/** GET /openapi.json: this API's OpenAPI 3.1 description (public). */
import { buildOpenApiDocument } from "../../http/openapi/document.ts";
import { httpRoute } from "../../http/pipeline.ts";

export const make = (document: () => object) =>
  httpRoute("get-openapi").handle(async () => ({ status: 200, body: document() }));

// Built once per container: the document only changes with a deployment.
const document = buildOpenApiDocument(process.env.SERVICE_NAME);

export const handler = make(() => document);
