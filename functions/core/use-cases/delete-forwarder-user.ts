/**
 * Removes a person's sign-in for the forwarder: out of the user directory first (no new token), then
 * the link. Another forwarder's user is as unknown as a missing one (404).
 */
import { ForwarderUserNotFoundError } from "../errors.ts";
import type { ForwarderUser, ForwarderUserDirectory, ForwarderUserRepository } from "../ports/tenants.ts";

export async function deleteForwarderUser(
  deps: { users: ForwarderUserRepository; directory: ForwarderUserDirectory },
  input: { forwarderId: string; userId: string },
): Promise<ForwarderUser> {
  const user = await deps.users.getUser(input.userId);
  if (!user || user.forwarderId !== input.forwarderId) throw new ForwarderUserNotFoundError(input.userId);
  await deps.directory.deleteUser(user.userId);
  await deps.users.deleteUser(user);
  return user;
}

/**
 * Removes every sign-in of a forwarder (when the forwarder is deleted): a forwarder onboarded again
 * under the same id must not find its former people still linked. Returns the removed users.
 */
export async function deleteForwarderUsers(
  deps: { users: ForwarderUserRepository; directory: ForwarderUserDirectory },
  forwarderId: string,
): Promise<ForwarderUser[]> {
  const users = await deps.users.listUsers(forwarderId);
  for (const user of users) {
    await deps.directory.deleteUser(user.userId);
    await deps.users.deleteUser(user);
  }
  return users;
}
