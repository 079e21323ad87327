/**
 * The DynamoDB subscription and delivery repositories against DynamoDB Local: the shared contract
 * (same as the in-memory ones), plus the item layout the design fixes (keys, full copies in MATCH#
 * items, TTL on delivery items).
 */
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptionIndexKeys } from "../../../functions/core/notifications/index.ts";
import type {
  DeliveryRepository,
  SubscriptionRepository,
} from "../../../functions/core/ports/notifications.ts";
import { deliveryRepositoryContract, subscriptionRepositoryContract } from "./contract.ts";
import { type LocalTables, startLocalTables } from "./dynamo-local.ts";
import { deliveryRecord, OWNER, rule } from "./fixtures.ts";

let local: LocalTables;
let subscriptions: SubscriptionRepository;
let deliveries: DeliveryRepository;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoSubscriptionRepository } = await import(
    "../../../functions/adapters/subscription-repository.ts"
  );
  const { dynamoDeliveryRepository } = await import("../../../functions/adapters/delivery-repository.ts");
  subscriptions = dynamoSubscriptionRepository();
  deliveries = dynamoDeliveryRepository();
});

afterAll(async () => {
  await local?.stop();
});

subscriptionRepositoryContract(() => subscriptions);
deliveryRepositoryContract(() => deliveries);

describe("DynamoDB layout", () => {
  it("a rule is one FWD# item plus one MATCH# item per index key holding the full rule", async () => {
    const owner = { ...OWNER, forwarderId: "fwd-layout" };
    const r = rule(77, { Event: "DEP,ARR" }, owner);
    await subscriptions.putRule(r);
    const table = local.tables.SUBSCRIPTIONS_TABLE;
    const main = await local.doc.send(
      new GetCommand({ TableName: table, Key: { pk: "FWD#fwd-layout", sk: "RULE#0000000077" } }),
    );
    expect(main.Item?.data).toEqual(r);
    const keys = subscriptionIndexKeys({ kind: "rule", rule: r });
    expect(main.Item?.indexKeys).toEqual(keys);
    for (const key of keys) {
      const item = await local.doc.send(
        new GetCommand({ TableName: table, Key: { pk: `MATCH#${key}`, sk: "RULE#0000000077" } }),
      );
      expect(item.Item?.data).toEqual(r);
    }
    await subscriptions.deleteRule("fwd-layout", 77);
    for (const key of keys) {
      const left = await local.doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": `MATCH#${key}` },
        }),
      );
      expect(left.Items ?? []).toEqual([]);
    }
  });

  it("a delivery is a RECORD item and a SUB# listing item, both with a 30-day TTL", async () => {
    // Created today (whole seconds): a past date would be past its TTL, and DynamoDB Local deletes it.
    const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    const record = deliveryRecord("evt-layout", 5, { createdAt });
    await deliveries.create(record);
    const table = local.tables.DELIVERIES_TABLE;
    const item = await local.doc.send(
      new GetCommand({ TableName: table, Key: { pk: `DELIVERY#${record.deliveryId}`, sk: "RECORD" } }),
    );
    const expected = Date.parse(createdAt) / 1000 + 30 * 24 * 3600;
    expect(item.Item?.expiresAt).toBe(expected);
    expect(JSON.parse(item.Item?.job as string)).toEqual(record.job);
    const listing = await local.doc.send(
      new GetCommand({
        TableName: table,
        Key: { pk: "SUB#webhook#5", sk: `${createdAt}#${record.deliveryId}` },
      }),
    );
    expect(listing.Item?.expiresAt).toBe(expected);
  });
});
