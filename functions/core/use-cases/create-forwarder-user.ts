/**
 * A person who signs in to the web app for the forwarder: the sign-in is created in
 * the user directory (Cognito sends the invitation in AWS), then linked to the forwarder; the token
 * trigger gives the person's tokens the forwarder's claims. 404 for a forwarder never onboarded (allowed
 * for a disabled one: no token until it is enabled); 409 for an e-mail that already signs in. The
 * sign-in is removed again when the link cannot be stored.
 */
import type { ForwarderUser, ForwarderUserDirectory, ForwarderUserRepository } from "../ports/tenants.ts";
import { forwarderRef, requireTenant, type TenantDeps } from "./shared/tenants.ts";

export interface ForwarderUserDeps extends TenantDeps {
  users: ForwarderUserRepository;
  directory: ForwarderUserDirectory;
}

export async function createForwarderUser(
  deps: ForwarderUserDeps,
  input: { forwarderId: string; email: string; now: string },
): Promise<ForwarderUser> {
  await requireTenant(deps, forwarderRef(input.forwarderId));
  const { userId } = await deps.directory.createUser({ email: input.email });
  const user: ForwarderUser = {
    userId,
    email: input.email,
    forwarderId: input.forwarderId,
    createdAt: input.now,
  };
  try {
    await deps.users.createUser(user);
  } catch (error) {
    await deps.directory.deleteUser(userId);
    throw error;
  }
  return user;
}
