/** POST /support/forwarders: onboard a forwarder (201; 409 when it exists). Its clients come next. */
import { nowIso } from "../../adapters/clock.ts";
import { createForwarder } from "../../core/use-cases/create-forwarder.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ForwarderRequestSchema, forwarderBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("create-forwarder", { body: ForwarderRequestSchema }, pipeline).handle(async ({ body }) => {
    const profile = {
      forwarderId: body.ForwarderId,
      agentCode: body.AgentCode,
      agentCass: body.AgentCass,
      agentStation: body.AgentStation,
      contactEmail: body.ContactEmail,
    };
    const forwarder = await createForwarder(deps(), { profile, now: nowIso() });
    return { status: 201, body: forwarderBody(forwarder) };
  });

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
