/** GET /support/forwarders/{id}: one onboarded forwarder (404 otherwise). */
import { getForwarder } from "../../core/use-cases/get-forwarder.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { forwarderBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("get-forwarder", { params: { id: forwarderIdFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: forwarderBody(await getForwarder(deps(), params.id)),
    }),
  );

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
