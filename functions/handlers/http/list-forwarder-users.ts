/** GET /support/forwarders/{id}/users: the people who sign in for the forwarder, oldest first. */
import type { ForwarderUserRepository } from "../../core/ports/tenants.ts";
import { listForwarderUsers } from "../../core/use-cases/list-forwarder-users.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { forwarderUserBody } from "../../http/schemas/forwarder-users.ts";
import { forwarderUsers, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps & { users: ForwarderUserRepository }, pipeline?: Pipeline) =>
  httpRoute("list-forwarder-users", { params: { id: forwarderIdFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: { Items: (await listForwarderUsers(deps(), params.id)).map(forwarderUserBody) },
    }),
  );

export const handler = make(() => ({ tenants: tenants(), users: forwarderUsers() }), httpPipeline);
