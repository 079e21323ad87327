/** The people who sign in for the forwarder, oldest first; 404 for a forwarder never onboarded. */
import type { ForwarderUser, ForwarderUserRepository } from "../ports/tenants.ts";
import { forwarderRef, requireTenant, type TenantDeps } from "./shared/tenants.ts";

export async function listForwarderUsers(
  deps: TenantDeps & { users: Pick<ForwarderUserRepository, "listUsers"> },
  forwarderId: string,
): Promise<ForwarderUser[]> {
  await requireTenant(deps, forwarderRef(forwarderId));
  return deps.users.listUsers(forwarderId);
}
