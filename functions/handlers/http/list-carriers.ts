/** GET /support/carriers?Limit=&Cursor=: onboarded carriers with their settings and Enabled. */
import { listCarriers } from "../../core/use-cases/list-carriers.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { carrierTenantBody, cursorPagedBody } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, tenants } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["list-carriers"];

export const make = (deps: () => CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute("list-carriers", { query: api.query }, pipeline).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listCarriers(deps(), query), carrierTenantBody),
  }));

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }), httpPipeline);
