/** POST /support/forwarders/{id}/disable: switch the forwarder off: its clients get no token. */
import { nowIso } from "../../adapters/clock.ts";
import { disableForwarder } from "../../core/use-cases/disable-forwarder.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { forwarderBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("disable-forwarder", { params: { id: forwarderIdFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: forwarderBody(await disableForwarder(deps(), { forwarderId: params.id, now: nowIso() })),
    }),
  );

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
