/** POST /support/forwarders/{id}/clients/{clientId}/disable: switch one of its clients off (no token). */

import { disableForwarderClient } from "../../core/use-cases/disable-forwarder-client.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { clientIdFromPath, forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute(
    "disable-forwarder-client",
    {
      params: { id: forwarderIdFromPath, clientId: clientIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const input = { forwarderId: params.id, clientId: params.clientId };
    return { status: 200, body: clientBody(await disableForwarderClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
