/**
 * The DynamoDB forwarder-user links (functions/adapters/forwarder-user-repository.ts) against DynamoDB
 * Local, and the memory twin the use-case tests use, with the same checks: a link found by user id and
 * listed under its forwarder (oldest first), one link per user id and per e-mail, deletion of all three
 * items at once (the e-mail is free again), idempotent deletion, tenant records left alone.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TABLES } from "../../../functions/contracts/resources.ts";
import { ForwarderUserExistsError } from "../../../functions/core/errors.ts";
import type { ForwarderUser, ForwarderUserRepository } from "../../../functions/core/ports/tenants.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import { scaled } from "../../support/time.ts";
import { type LocalTables, startLocalTables } from "../subscriptions/dynamo-local.ts";

let local: LocalTables;
let dynamo: ForwarderUserRepository;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoForwarderUserRepository } = await import(
    "../../../functions/adapters/forwarder-user-repository.ts"
  );
  dynamo = dynamoForwarderUserRepository();
}, scaled(60_000));

afterAll(async () => {
  await local?.stop();
});

let n = 0;
const user = (forwarderId: string, createdAt: string): ForwarderUser => {
  n++;
  return {
    userId: `u-${n}-${Math.random().toString(36).slice(2, 8)}`,
    email: `p${n}@fwd.example`,
    forwarderId,
    createdAt,
  };
};

function behaviour(name: string, repository: () => ForwarderUserRepository) {
  describe(name, () => {
    it("finds a link by user id and lists the forwarder's links oldest first", async () => {
      const forwarder = `F${++n}`;
      const later = user(forwarder, "2026-11-24T10:00:02.000Z");
      const earlier = user(forwarder, "2026-11-24T10:00:01.000Z");
      const elsewhere = user(`F${++n}`, "2026-11-24T10:00:00.000Z");
      for (const link of [later, earlier, elsewhere]) await repository().createUser(link);
      expect(await repository().getUser(later.userId)).toEqual(later);
      expect(await repository().getUser("no-such-user")).toBeNull();
      expect(await repository().listUsers(forwarder)).toEqual([earlier, later]);
    });

    it("refuses a second link of a user id or of an e-mail", async () => {
      const first = user(`F${++n}`, "2026-11-24T10:00:00.000Z");
      await repository().createUser(first);
      await expect(repository().createUser({ ...first, email: "other@fwd.example" })).rejects.toBeInstanceOf(
        ForwarderUserExistsError,
      );
      await expect(repository().createUser({ ...first, userId: "another-id" })).rejects.toBeInstanceOf(
        ForwarderUserExistsError,
      );
      expect(await repository().listUsers(first.forwarderId)).toEqual([first]);
      expect(await repository().getUser("another-id")).toBeNull();
    });

    it("deletes a link whole (the e-mail is free again), idempotently", async () => {
      const link = user(`F${++n}`, "2026-11-24T10:00:00.000Z");
      await repository().createUser(link);
      await repository().deleteUser(link);
      await repository().deleteUser(link);
      expect(await repository().getUser(link.userId)).toBeNull();
      expect(await repository().listUsers(link.forwarderId)).toEqual([]);
      await repository().createUser({ ...link, userId: `${link.userId}-again` });
      expect((await repository().listUsers(link.forwarderId)).map((found) => found.userId)).toEqual([
        `${link.userId}-again`,
      ]);
    });
  });
}

behaviour("DynamoDB", () => dynamo);
const memory = memoryForwarderUserRepository();
behaviour("memory", () => memory);

describe("DynamoDB layout", () => {
  it("keeps the listing copy under the forwarder's tenant partition, beside its profile and clients", async () => {
    const link = user("FLAYOUT", "2026-11-24T10:00:00.000Z");
    await dynamo.createUser(link);
    const { Items } = await local.doc.send(
      new QueryCommand({
        TableName: local.tables[TABLES.tenants.envVar],
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "TENANT#forwarder#FLAYOUT" },
      }),
    );
    expect(Items?.map((item) => item.sk)).toEqual([`USER#${link.userId}`]);
  });
});
