/** GET /support/carriers?Limit=&Cursor=: onboarded carriers with their settings and Enabled. */
import { listCarriers } from "../../core/use-cases/list-carriers.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { carrierTenantBody, cursorPagedBody, TenantPageRequestSchema } from "../../http/schemas/tenants.ts";
import { carriers, tenants } from "../../wiring.ts";

export const make = (deps: () => CarrierTenantDeps) =>
  httpRoute("list-carriers", { query: TenantPageRequestSchema }).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listCarriers(deps(), query), carrierTenantBody),
  }));

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }));
