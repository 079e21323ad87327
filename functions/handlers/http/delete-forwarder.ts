/**
 * DELETE /support/forwarders/{id}: offboard the forwarder: its clients and the people signing in for it
 * are removed with it (200 with the forwarder, DeletedClients and DeletedUsers). Its rules, webhooks and
 * route maps stay.
 */
import { type DeleteForwarderDeps, deleteForwarder } from "../../core/use-cases/delete-forwarder.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { forwarderBody } from "../../http/schemas/tenants.ts";
import {
  clientRegistry,
  forwarderUserDirectory,
  forwarderUsers,
  httpPipeline,
  tenants,
} from "../../wiring.ts";

export const make = (deps: () => DeleteForwarderDeps, pipeline?: Pipeline) =>
  httpRoute("delete-forwarder", { params: { id: forwarderIdFromPath } }, pipeline).handle(
    async ({ params }) => {
      const deleted = await deleteForwarder(deps(), params.id);
      return {
        status: 200,
        body: {
          ...forwarderBody(deleted.forwarder),
          DeletedClients: deleted.deletedClients,
          DeletedUsers: deleted.deletedUsers,
        },
      };
    },
  );

export const handler = make(
  () => ({
    tenants: tenants(),
    clients: clientRegistry(),
    users: forwarderUsers(),
    directory: forwarderUserDirectory(),
  }),
  httpPipeline,
);
