/** POST /support/carriers/{prefix}/disable: switch the carrier off: its clients get no token (404 without settings). */
import { nowIso } from "../../adapters/clock.ts";
import { disableCarrier } from "../../core/use-cases/disable-carrier.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierTenantBody } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute("disable-carrier", { params: { prefix: prefixFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: carrierTenantBody(await disableCarrier(deps(), { prefix: params.prefix, now: nowIso() })),
    }),
  );

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }), httpPipeline);
