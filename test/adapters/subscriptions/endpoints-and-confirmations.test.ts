/**
 * Issue 11 points 5 and 21 against DynamoDB Local: customer endpoints updated, deleted and listed per
 * forwarder; NotifyTo confirmations stored with only the token's hash, confirmed once.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CustomerEndpoint,
  confirmationToRequest,
  confirmWithToken,
  hashConfirmationToken,
} from "../../../functions/core/notifications/index.ts";
import type {
  EmailConfirmationRepository,
  SubscriptionRepository,
} from "../../../functions/core/ports/notifications.ts";
import { memoryEmailConfirmationRepository } from "../../support/memory/email-confirmation-repository.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";
import { type LocalTables, startLocalTables } from "./dynamo-local.ts";

let local: LocalTables;
let dynamoSubscriptions: SubscriptionRepository;
let dynamoConfirmations: EmailConfirmationRepository;

beforeAll(async () => {
  local = await startLocalTables();
  const { dynamoSubscriptionRepository } = await import(
    "../../../functions/adapters/subscription-repository.ts"
  );
  const { dynamoEmailConfirmationRepository } = await import(
    "../../../functions/adapters/email-confirmation-repository.ts"
  );
  dynamoSubscriptions = dynamoSubscriptionRepository();
  dynamoConfirmations = dynamoEmailConfirmationRepository();
});

afterAll(async () => {
  await local?.stop();
});

const endpoint = (n: number, forwarderId: string): CustomerEndpoint => ({
  id: `3f2504e0-4f89-41d3-9a0c-0305e82c33${String(n).padStart(2, "0")}`,
  forwarderId,
  url: `https://customer.example/${n}`,
  headerName: "apiKey",
  headerValue: `value-${n}-0123456789`,
  createdAt: `2026-03-14T12:00:${String(n).padStart(2, "0")}.000Z`,
});

for (const [name, repo] of [
  ["DynamoDB", () => dynamoSubscriptions],
  ["memory", memorySubscriptionRepository],
] as const) {
  describe(`${name}: customer endpoints`, () => {
    it("updates, deletes and lists per forwarder", async () => {
      const subscriptions = repo();
      const mine = endpoint(1, "fwd-endpoints-a");
      await subscriptions.putCustomerEndpoint(mine);
      await subscriptions.putCustomerEndpoint(endpoint(2, "fwd-endpoints-b"));
      const rotated = { ...mine, headerValue: "rotated-0123456789", updatedAt: "2026-03-15T00:00:00.000Z" };
      expect(await subscriptions.updateCustomerEndpoint(rotated)).toBe(true);
      expect(await subscriptions.getCustomerEndpoint(mine.id)).toEqual(rotated);
      const own = await subscriptions.listCustomerEndpoints({ page: 1, pageSize: 100 }, "fwd-endpoints-a");
      expect(own).toEqual({ items: [rotated], total: 1 });
      expect(await subscriptions.deleteCustomerEndpoint(rotated)).toBe(true);
      expect(await subscriptions.getCustomerEndpoint(mine.id)).toBeNull();
      expect(await subscriptions.deleteCustomerEndpoint(rotated)).toBe(false);
      expect(await subscriptions.updateCustomerEndpoint(rotated)).toBe(false);
      const all = await subscriptions.listCustomerEndpoints({ page: 1, pageSize: 100 });
      expect(all.items.map((e) => e.id)).not.toContain(mine.id);
    });
  });
}

for (const [name, repo] of [
  ["DynamoDB", () => dynamoConfirmations],
  ["memory", memoryEmailConfirmationRepository],
] as const) {
  describe(`${name}: e-mail confirmations`, () => {
    it("a new link replaces the old one; the link confirms once; a confirmed address stays confirmed", async () => {
      const confirmations = repo();
      const now = "2026-03-14T12:00:00.000Z";
      const base = { forwarderId: `fwd-confirm-${name}`, address: "ops@x.example" };
      const first = confirmationToRequest(null, { ...base, token: "first-token-0123456789ab", now });
      if (!first?.tokenHash) throw new Error("no confirmation");
      await confirmations.putPending(first);
      const second = confirmationToRequest(first, {
        ...base,
        token: "second-token-0123456789a",
        now: "2026-03-15T13:00:00.000Z",
      });
      if (!second?.tokenHash) throw new Error("no second confirmation");
      await confirmations.putPending(second);
      expect(await confirmations.findByTokenHash(first.tokenHash)).toBeNull();
      const found = await confirmations.findByTokenHash(hashConfirmationToken("second-token-0123456789a"));
      expect(found).toEqual(second);
      const result = confirmWithToken(found, "second-token-0123456789a", "2026-03-15T13:05:00.000Z");
      if (!result.ok) throw new Error("not confirmable");
      expect(await confirmations.confirm(result.confirmation, second.tokenHash)).toBe(true);
      expect(await confirmations.confirm(result.confirmation, second.tokenHash)).toBe(false);
      expect((await confirmations.get(base.forwarderId, base.address))?.status).toBe("confirmed");
      await confirmations.putPending({ ...second, requestedAt: "2026-04-01T00:00:00.000Z" });
      expect((await confirmations.get(base.forwarderId, base.address))?.status).toBe("confirmed");
    });
  });
}

describe("DynamoDB layout of a confirmation", () => {
  it("stores the token's SHA-256, never the token", async () => {
    const token = "layout-token-0123456789ab";
    const pending = confirmationToRequest(null, {
      forwarderId: "fwd-layout-confirm",
      address: "Ops@Layout.example",
      token,
      now: "2026-03-14T12:00:00.000Z",
    });
    if (!pending) throw new Error("no confirmation");
    await dynamoConfirmations.putPending(pending);
    const table = local.tables.SUBSCRIPTIONS_TABLE;
    const item = await local.doc.send(
      new GetCommand({
        TableName: table,
        Key: { pk: "EMAILCONFIRM#fwd-layout-confirm#ops@layout.example", sk: "CONFIRMATION" },
      }),
    );
    expect(item.Item?.data.tokenHash).toBe(hashConfirmationToken(token));
    expect(JSON.stringify(item.Item)).not.toContain(token);
  });
});
