/** POST /support/carriers/{prefix}/enable: switch the carrier on again (404 without settings). */
import { nowIso } from "../../adapters/clock.ts";
import { enableCarrier } from "../../core/use-cases/enable-carrier.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierTenantBody } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute("enable-carrier", { params: { prefix: prefixFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: carrierTenantBody(await enableCarrier(deps(), { prefix: params.prefix, now: nowIso() })),
    }),
  );

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }), httpPipeline);
