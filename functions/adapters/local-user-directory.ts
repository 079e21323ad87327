/**
 * The local runner's ForwarderUserDirectory: a generated user id and no mail. The e-mail's uniqueness
 * is kept by the forwarder-user links (functions/adapters/forwarder-user-repository.ts); people sign in
 * locally with the dev sign-in, not a password.
 */
import { randomUUID } from "node:crypto";
import type { ForwarderUserDirectory } from "../core/ports/tenants.ts";

export function localUserDirectory(): ForwarderUserDirectory {
  return {
    async createUser() {
      return { userId: randomUUID() };
    },
    async deleteUser() {},
  };
}
