/** GET /support/forwarders?Limit=&Cursor=: onboarded forwarders in id order, a page at a time. */
import { listForwarders } from "../../core/use-cases/list-forwarders.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_FORWARDER_ROUTES } from "../../http/routes/support-forwarders.ts";
import { cursorPagedBody, forwarderBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_FORWARDER_ROUTES["list-forwarders"];

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("list-forwarders", { query: api.query }, pipeline).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listForwarders(deps(), query), forwarderBody),
  }));

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
