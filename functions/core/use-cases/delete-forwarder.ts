/**
 * Offboards a forwarder: each of its clients leaves the registry and each person signing in for it
 * leaves the user directory, then its profile, client records and user links are deleted (a forwarder
 * onboarded again under the same id starts without them). Its rules, webhooks and route maps stay.
 */
import type { ForwarderUserDirectory, ForwarderUserRepository } from "../ports/tenants.ts";
import type { ForwarderTenant } from "../tenants/tenants.ts";
import { deleteForwarderUsers } from "./delete-forwarder-user.ts";
import {
  asForwarder,
  deleteTenant,
  forwarderRef,
  requireTenant,
  type TenantClientDeps,
} from "./shared/tenants.ts";

export interface DeleteForwarderDeps extends TenantClientDeps {
  users: ForwarderUserRepository;
  directory: ForwarderUserDirectory;
}

export async function deleteForwarder(
  deps: DeleteForwarderDeps,
  forwarderId: string,
): Promise<{ forwarder: ForwarderTenant; deletedClients: string[]; deletedUsers: string[] }> {
  const ref = forwarderRef(forwarderId);
  const forwarder = asForwarder(await requireTenant(deps, ref));
  const users = await deleteForwarderUsers(deps, forwarderId);
  const deletedClients = await deleteTenant(deps, ref);
  return { forwarder, deletedClients, deletedUsers: users.map((user) => user.userId) };
}
