/** GET /support/forwarders?Limit=&Cursor=: onboarded forwarders in id order, a page at a time. */
import { listForwarders } from "../../core/use-cases/list-forwarders.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { cursorPagedBody, forwarderBody, TenantPageRequestSchema } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("list-forwarders", { query: TenantPageRequestSchema }, pipeline).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listForwarders(deps(), query), forwarderBody),
  }));

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
