import { publicHttpHandler } from "./kit.ts";
import { buildOpenApiDocument } from "./openapi.ts";

// Built once per container: the document only changes with a deployment.
const document = buildOpenApiDocument(process.env.SERVICE_NAME);

export const handler = publicHttpHandler("get-openapi", async () => ({ status: 200, body: document }));
