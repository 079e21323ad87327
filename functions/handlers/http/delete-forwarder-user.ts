/** DELETE /support/forwarders/{id}/users/{userId}: the sign-in is removed and unlinked (200 with it). */
import type { ForwarderUserDirectory, ForwarderUserRepository } from "../../core/ports/tenants.ts";
import { deleteForwarderUser } from "../../core/use-cases/delete-forwarder-user.ts";
import { forwarderIdFromPath, userIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { forwarderUserBody } from "../../http/schemas/forwarder-users.ts";
import { forwarderUserDirectory, forwarderUsers, httpPipeline } from "../../wiring.ts";

export const make = (
  deps: () => { users: ForwarderUserRepository; directory: ForwarderUserDirectory },
  pipeline?: Pipeline,
) =>
  httpRoute(
    "delete-forwarder-user",
    {
      params: { id: forwarderIdFromPath, userId: userIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const input = { forwarderId: params.id, userId: params.userId };
    return { status: 200, body: forwarderUserBody(await deleteForwarderUser(deps(), input)) };
  });

export const handler = make(
  () => ({ users: forwarderUsers(), directory: forwarderUserDirectory() }),
  httpPipeline,
);
