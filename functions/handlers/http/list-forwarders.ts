/** GET /support/forwarders?Limit=&Cursor=: onboarded forwarders in id order, a page at a time. */
import { listForwarders } from "../../core/use-cases/list-forwarders.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { cursorPagedBody, forwarderBody, TenantPageRequestSchema } from "../../http/schemas/tenants.ts";
import { tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps) =>
  httpRoute("list-forwarders", { query: TenantPageRequestSchema }).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listForwarders(deps(), query), forwarderBody),
  }));

export const handler = make(() => ({ tenants: tenants() }));
