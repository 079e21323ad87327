/**
 * Deletes one of the forwarder's clients: out of the registry, then its record. Rotation: create a new
 * client, switch over, then delete the old one. Another tenant's client is 404.
 */
import {
  type ClientView,
  deleteTenantClient,
  forwarderRef,
  type TenantClientDeps,
} from "./shared/tenants.ts";

export async function deleteForwarderClient(
  deps: TenantClientDeps,
  input: { forwarderId: string; clientId: string },
): Promise<ClientView> {
  return deleteTenantClient(deps, { ref: forwarderRef(input.forwarderId), clientId: input.clientId });
}
