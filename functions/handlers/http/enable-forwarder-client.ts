/** POST /support/forwarders/{id}/clients/{clientId}/enable: switch one of its clients on again. */

import { enableForwarderClient } from "../../core/use-cases/enable-forwarder-client.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { clientIdFromPath, forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute(
    "enable-forwarder-client",
    {
      params: { id: forwarderIdFromPath, clientId: clientIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const input = { forwarderId: params.id, clientId: params.clientId };
    return { status: 200, body: clientBody(await enableForwarderClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
