/** GET /support/carriers?Limit=&Cursor=: onboarded carriers with their settings and Enabled. */
import { listCarriers } from "../../core/use-cases/list-carriers.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierTenantBody, cursorPagedBody, TenantPageRequestSchema } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute("list-carriers", { query: TenantPageRequestSchema }, pipeline).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listCarriers(deps(), query), carrierTenantBody),
  }));

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }), httpPipeline);
