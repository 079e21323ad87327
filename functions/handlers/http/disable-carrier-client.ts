/** POST /support/carriers/{prefix}/clients/{clientId}/disable: switch one of its clients off (no token). */

import { disableCarrierClient } from "../../core/use-cases/disable-carrier-client.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { clientIdFromPath, prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute(
    "disable-carrier-client",
    {
      params: { prefix: prefixFromPath, clientId: clientIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const input = { prefix: params.prefix, clientId: params.clientId };
    return { status: 200, body: clientBody(await disableCarrierClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
