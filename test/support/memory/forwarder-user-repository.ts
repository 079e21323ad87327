/**
 * ForwarderUserRepository in memory, with the DynamoDB adapter's semantics: one link per user id and
 * per e-mail (ForwarderUserExistsError otherwise), users listed oldest first, deletion idempotent.
 * `writes` counts the calls that change something.
 */
import { ForwarderUserExistsError } from "../../../functions/core/errors.ts";
import type { ForwarderUser, ForwarderUserRepository } from "../../../functions/core/ports/tenants.ts";

export interface MemoryForwarderUserRepository extends ForwarderUserRepository {
  readonly writes: () => number;
}

export function memoryForwarderUserRepository(): MemoryForwarderUserRepository {
  const users = new Map<string, ForwarderUser>();
  let writes = 0;
  return {
    writes: () => writes,
    async getUser(userId) {
      const found = users.get(userId);
      return found ? { ...found } : null;
    },
    async createUser(user) {
      writes++;
      if (users.has(user.userId) || [...users.values()].some((known) => known.email === user.email))
        throw new ForwarderUserExistsError(user.email);
      users.set(user.userId, { ...user });
    },
    async listUsers(forwarderId) {
      return [...users.values()]
        .filter((user) => user.forwarderId === forwarderId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((user) => ({ ...user }));
    },
    async deleteUser(user) {
      writes++;
      users.delete(user.userId);
    },
  };
}
