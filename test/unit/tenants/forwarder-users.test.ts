/**
 * The forwarder-user use cases over memory adapters and a recording user directory: a user is created
 * in the directory and then linked; a link that cannot be stored removes the sign-in again; deletion
 * removes the sign-in before the link; another forwarder's user is unknown (404), and nothing changes.
 */
import { describe, expect, it } from "vitest";
import {
  ForwarderUserExistsError,
  ForwarderUserNotFoundError,
  TenantNotFoundError,
} from "../../../functions/core/errors.ts";
import type { ForwarderUserDirectory } from "../../../functions/core/ports/tenants.ts";
import type { Tenant } from "../../../functions/core/tenants/tenants.ts";
import { createForwarderUser } from "../../../functions/core/use-cases/create-forwarder-user.ts";
import {
  deleteForwarderUser,
  deleteForwarderUsers,
} from "../../../functions/core/use-cases/delete-forwarder-user.ts";
import { listForwarderUsers } from "../../../functions/core/use-cases/list-forwarder-users.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const NOW = "2026-11-24T10:00:00.000Z";
const forwarder = (forwarderId: string): Tenant => ({
  kind: "forwarder",
  forwarderId,
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: null,
  contactEmail: "it@fwd.example",
  enabled: true,
  createdAt: NOW,
  updatedAt: NOW,
});

/** A directory that records its calls and hands out user-1, user-2, ... */
function recordingDirectory() {
  const calls: string[] = [];
  let next = 0;
  const directory: ForwarderUserDirectory = {
    async createUser({ email }) {
      next++;
      calls.push(`create ${email} -> user-${next}`);
      return { userId: `user-${next}` };
    },
    async deleteUser(userId) {
      calls.push(`delete ${userId}`);
    },
  };
  return { calls, directory };
}

async function setup() {
  const tenants = memoryTenantRepository();
  await tenants.createTenant(forwarder("ACMECARGO"));
  await tenants.createTenant(forwarder("FWD2"));
  const users = memoryForwarderUserRepository();
  const { calls, directory } = recordingDirectory();
  return { deps: { tenants, users, directory }, calls, users };
}

describe("createForwarderUser", () => {
  it("creates the sign-in, then links it to the forwarder", async () => {
    const { deps, calls, users } = await setup();
    const created = await createForwarderUser(deps, {
      forwarderId: "ACMECARGO",
      email: "anna@fwd.example",
      now: NOW,
    });
    expect(created).toEqual({
      userId: "user-1",
      email: "anna@fwd.example",
      forwarderId: "ACMECARGO",
      createdAt: NOW,
    });
    expect(calls).toEqual(["create anna@fwd.example -> user-1"]);
    expect(await users.getUser("user-1")).toEqual(created);
  });

  it("refuses a forwarder never onboarded before creating any sign-in", async () => {
    const { deps, calls, users } = await setup();
    await expect(
      createForwarderUser(deps, { forwarderId: "NOPE", email: "x@fwd.example", now: NOW }),
    ).rejects.toBeInstanceOf(TenantNotFoundError);
    expect(calls).toEqual([]);
    expect(users.writes()).toBe(0);
  });

  it("removes the sign-in again when the link cannot be stored (an e-mail already linked)", async () => {
    const { deps, calls } = await setup();
    await createForwarderUser(deps, { forwarderId: "ACMECARGO", email: "anna@fwd.example", now: NOW });
    await expect(
      createForwarderUser(deps, { forwarderId: "FWD2", email: "anna@fwd.example", now: NOW }),
    ).rejects.toBeInstanceOf(ForwarderUserExistsError);
    expect(calls).toEqual([
      "create anna@fwd.example -> user-1",
      "create anna@fwd.example -> user-2",
      "delete user-2",
    ]);
    expect((await listForwarderUsers(deps, "FWD2")).length).toBe(0);
  });
});

describe("deleteForwarderUser and listForwarderUsers", () => {
  it("removes the sign-in, then the link; lists only the forwarder's own users", async () => {
    const { deps, calls } = await setup();
    await createForwarderUser(deps, { forwarderId: "ACMECARGO", email: "anna@fwd.example", now: NOW });
    await createForwarderUser(deps, { forwarderId: "FWD2", email: "ben@fwd.example", now: NOW });
    expect((await listForwarderUsers(deps, "ACMECARGO")).map((user) => user.email)).toEqual([
      "anna@fwd.example",
    ]);
    const removed = await deleteForwarderUser(deps, { forwarderId: "ACMECARGO", userId: "user-1" });
    expect(removed.email).toBe("anna@fwd.example");
    expect(calls.at(-1)).toBe("delete user-1");
    expect(await listForwarderUsers(deps, "ACMECARGO")).toEqual([]);
  });

  it("treats another forwarder's user as unknown and changes nothing", async () => {
    const { deps, calls, users } = await setup();
    await createForwarderUser(deps, { forwarderId: "FWD2", email: "ben@fwd.example", now: NOW });
    const writes = users.writes();
    await expect(
      deleteForwarderUser(deps, { forwarderId: "ACMECARGO", userId: "user-1" }),
    ).rejects.toBeInstanceOf(ForwarderUserNotFoundError);
    expect(calls).toEqual(["create ben@fwd.example -> user-1"]);
    expect(users.writes()).toBe(writes);
    await expect(listForwarderUsers(deps, "NOPE")).rejects.toBeInstanceOf(TenantNotFoundError);
  });
});

describe("deleteForwarderUsers (a forwarder deleted)", () => {
  it("removes every sign-in of the forwarder and its links, and no other forwarder's", async () => {
    const { deps, calls } = await setup();
    await createForwarderUser(deps, { forwarderId: "ACMECARGO", email: "anna@fwd.example", now: NOW });
    await createForwarderUser(deps, { forwarderId: "ACMECARGO", email: "ben@fwd.example", now: NOW });
    await createForwarderUser(deps, { forwarderId: "FWD2", email: "carla@fwd.example", now: NOW });
    const removed = await deleteForwarderUsers(deps, "ACMECARGO");
    expect(removed.map((user) => user.userId).sort()).toEqual(["user-1", "user-2"]);
    expect(calls.filter((call) => call.startsWith("delete")).sort()).toEqual([
      "delete user-1",
      "delete user-2",
    ]);
    expect(await deps.users.listUsers("ACMECARGO")).toEqual([]);
    expect((await deps.users.listUsers("FWD2")).map((user) => user.email)).toEqual(["carla@fwd.example"]);
  });
});
