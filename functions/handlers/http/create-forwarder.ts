/** POST /support/forwarders: onboard a forwarder (201; 409 when it exists). Its clients come next. */
import { nowIso } from "../../adapters/clock.ts";
import { createForwarder } from "../../core/use-cases/create-forwarder.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_FORWARDER_ROUTES } from "../../http/routes/support-forwarders.ts";
import { forwarderBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_FORWARDER_ROUTES["create-forwarder"];

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("create-forwarder", { body: api.body.schema }, pipeline).handle(async ({ body }) => {
    const profile = {
      forwarderId: body.ForwarderId,
      name: body.Name,
      agentCode: body.AgentCode,
      agentCass: body.AgentCass,
      agentStation: body.AgentStation,
      contactEmail: body.ContactEmail,
    };
    const forwarder = await createForwarder(deps(), { profile, now: nowIso() });
    return { status: 201, body: forwarderBody(forwarder) };
  });

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
