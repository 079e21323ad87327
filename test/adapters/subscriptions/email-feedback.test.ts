/**
 * The DynamoDB side of SES feedback against DynamoDB Local: an attempt that sent
 * e-mail writes its SES MessageId pointer with the attempt (SESMSG#<id> / DELIVERY, expiring with the
 * delivery), so the feedback finds its delivery; suppressed addresses live in the Subscriptions table
 * under SUPPRESSED#<address>.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  DeliveryRepository,
  EmailSuppressionList,
} from "../../../functions/core/ports/notifications.ts";
import { type LocalTables, startLocalTables } from "./dynamo-local.ts";
import { deliveryRecord, NOW } from "./fixtures.ts";

/**
 * Created now: DynamoDB Local runs TTL, and a record of the fixtures' fixed date would already have
 * expired (30 days), vanishing mid-test.
 */
const FRESH = { createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };

let local: LocalTables;
let deliveries: DeliveryRepository;
let suppressions: EmailSuppressionList;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoDeliveryRepository } = await import("../../../functions/adapters/delivery-repository.ts");
  const { dynamoEmailSuppressionList } = await import(
    "../../../functions/adapters/email-suppression-list.ts"
  );
  deliveries = dynamoDeliveryRepository();
  suppressions = dynamoEmailSuppressionList();
});

afterAll(async () => {
  await local?.stop();
});

describe("SES MessageIds of delivery attempts", () => {
  it("find the delivery whose attempt sent the e-mail; other ids find nothing", async () => {
    const record = deliveryRecord("EV-SES-1", 7, FRESH);
    await deliveries.create(record);
    await deliveries.recordAttempt(
      record.deliveryId,
      {
        attempt: 1,
        at: NOW,
        status: 200,
        latencyMs: 12,
        outcome: "delivered",
        detail: "accepted by SES as ses-0001",
        emailMessageId: "ses-0001",
      },
      "delivered",
    );
    const found = await deliveries.findByEmailMessageId("ses-0001");
    expect(found?.deliveryId).toBe(record.deliveryId);
    expect(found?.attempts[0]?.emailMessageId).toBe("ses-0001");
    expect(await deliveries.findByEmailMessageId("ses-other")).toBeNull();

    const table = local.tables.DELIVERIES_TABLE;
    const pointer = await local.doc.send(
      new GetCommand({
        TableName: table,
        Key: { pk: "SESMSG#ses-0001", sk: "DELIVERY" },
        ConsistentRead: true,
      }),
    );
    const main = await local.doc.send(
      new GetCommand({
        TableName: table,
        Key: { pk: `DELIVERY#${record.deliveryId}`, sk: "RECORD" },
        ConsistentRead: true,
      }),
    );
    expect(pointer.Item).toEqual({
      pk: "SESMSG#ses-0001",
      sk: "DELIVERY",
      deliveryId: record.deliveryId,
      expiresAt: main.Item?.expiresAt,
    });
  });

  it("an attempt without e-mail writes no pointer, and the attempt log keeps its optimistic locking", async () => {
    const record = deliveryRecord("EV-SES-2", 7, FRESH);
    await deliveries.create(record);
    const attempt = { attempt: 1, at: NOW, status: 500, latencyMs: 3, detail: "HTTP 500" } as const;
    await Promise.all([
      deliveries.recordAttempt(record.deliveryId, { ...attempt, outcome: "retry" }, "retrying"),
      deliveries.recordAttempt(
        record.deliveryId,
        { ...attempt, attempt: 2, outcome: "delivered", emailMessageId: "ses-0002" },
        "delivered",
      ),
    ]);
    const stored = await deliveries.get(record.deliveryId);
    expect(stored?.attempts.map((a) => a.attempt).sort()).toEqual([1, 2]);
    expect((await deliveries.findByEmailMessageId("ses-0002"))?.deliveryId).toBe(record.deliveryId);
  });
});

describe("suppressed addresses", () => {
  it("are stored and read by normalised address", async () => {
    expect(await suppressions.get("ops@bounce.example")).toBeNull();
    const suppression = {
      address: "ops@bounce.example",
      reason: "bounce" as const,
      detail: "smtp; 550 5.1.1 user unknown",
      at: NOW,
      emailMessageId: "ses-0001",
    };
    await suppressions.suppress(suppression);
    expect(await suppressions.get("ops@bounce.example")).toEqual(suppression);
    const item = await local.doc.send(
      new GetCommand({
        TableName: local.tables.SUBSCRIPTIONS_TABLE,
        Key: { pk: "SUPPRESSED#ops@bounce.example", sk: "SUPPRESSED" },
        ConsistentRead: true,
      }),
    );
    expect(item.Item?.data).toEqual(suppression);
  });
});
