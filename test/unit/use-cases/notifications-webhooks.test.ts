/**
 * Webhook, delivery and customer-endpoint use cases over the in-memory repositories, with a scripted
 * verifier and a recording queue.
 */
import * as v from "valibot";
import { beforeEach, describe, expect, it } from "vitest";
import {
  DeliveryInProgressError,
  InvalidFieldsError,
  SubscriptionLimitError,
  SubscriptionNotFoundError,
  UnusableReferenceError,
} from "../../../functions/core/errors.ts";
import {
  CustomerEndpointRequestSchema,
  disableWebhook,
  isWebhookActive,
  type Webhook,
  WebhookRequestSchema,
} from "../../../functions/core/notifications/index.ts";
import type {
  DeliveryJob,
  VerificationOutcome,
  WebhookVerifier,
} from "../../../functions/core/ports/notifications.ts";
import { createWebhook } from "../../../functions/core/use-cases/create-webhook.ts";
import { deleteWebhook } from "../../../functions/core/use-cases/delete-webhook.ts";
import { getWebhook } from "../../../functions/core/use-cases/get-webhook.ts";
import { listCustomerEndpoints } from "../../../functions/core/use-cases/list-customer-endpoints.ts";
import { listWebhooks } from "../../../functions/core/use-cases/list-webhooks.ts";
import { registerCustomerEndpoint } from "../../../functions/core/use-cases/register-customer-endpoint.ts";
import {
  listSubscriptionDeliveries,
  replayDelivery,
  STALLED_AFTER_SECONDS,
} from "../../../functions/core/use-cases/shared/deliveries.ts";
import { updateWebhook } from "../../../functions/core/use-cases/update-webhook.ts";
import { verifyWebhook } from "../../../functions/core/use-cases/verify-webhook.ts";
import { deliveryRecord, NOW, OWNER, STRANGER, webhookBody } from "../../adapters/subscriptions/fixtures.ts";
import {
  type MemoryDeliveryRepository,
  memoryDeliveryRepository,
} from "../../support/memory/delivery-repository.ts";
import {
  type MemorySubscriptionRepository,
  memorySubscriptionRepository,
} from "../../support/memory/subscription-repository.ts";

let subscriptions: MemorySubscriptionRepository;
let deliveries: MemoryDeliveryRepository;
let queued: DeliveryJob[];
let verifications: Webhook[];
let nextOutcome: VerificationOutcome;
const verifier: WebhookVerifier = {
  checkTarget: async (url) =>
    url.includes("10.0.0.1")
      ? { allowed: false, reason: "address-not-allowed (private)" }
      : { allowed: true },
  verify: async (webhook) => {
    verifications.push(webhook);
    return nextOutcome;
  },
};
const limits = { rules: 5, webhooks: 2 };
const deps = () => ({ subscriptions, verifier, limits });
const request = (overrides: Record<string, unknown> = {}) =>
  v.parse(WebhookRequestSchema, webhookBody(overrides));
const create = (overrides: Record<string, unknown> = {}, owner = OWNER) =>
  createWebhook(deps(), { owner, request: request(overrides), now: NOW });

beforeEach(() => {
  subscriptions = memorySubscriptionRepository();
  deliveries = memoryDeliveryRepository();
  queued = [];
  verifications = [];
  nextOutcome = { ok: true };
});

describe("webhooks", () => {
  it("creation verifies the Url at once: verified and switched on means active", async () => {
    const webhook = await create();
    expect(webhook.verification.status).toBe("verified");
    expect(isWebhookActive(webhook)).toBe(true);
    expect(verifications.map((w) => w.id)).toEqual([webhook.id]);
    expect(await subscriptions.getWebhook(OWNER.forwarderId, webhook.id)).toEqual(webhook);
  });

  it("a failed challenge stores the webhook enabled and active, unverified with the reason", async () => {
    nextOutcome = { ok: false, reason: "challenge not echoed" };
    const webhook = await create();
    expect(webhook.verification).toMatchObject({ status: "failed", reason: "challenge not echoed" });
    expect(isWebhookActive(webhook)).toBe(true);
    expect(webhook.enabled).toBe(true);
    expect(await subscriptions.getWebhook(OWNER.forwarderId, webhook.id)).toEqual(webhook);
  });

  it("a Url the service may not call is refused before anything is written", async () => {
    const refused = await create({ Url: "http://10.0.0.1/hook" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnusableReferenceError);
    expect((refused as UnusableReferenceError).field).toBe("Url");
    expect(subscriptions.operations.nextId ?? 0).toBe(0);
    expect(verifications).toEqual([]);
  });

  it("a masked secret on creation is refused before anything is written (no id consumed)", async () => {
    const refused = await create({ Psk: "••••abcd" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidFieldsError);
    expect(subscriptions.operations.nextId ?? 0).toBe(0);
    expect(verifications).toEqual([]);
  });

  it("refuses beyond the per-forwarder webhook limit, even for simultaneous creations; no challenge then", async () => {
    const outcomes = await Promise.allSettled([create(), create(), create(), create()]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(limits.webhooks);
    for (const outcome of outcomes.filter((o) => o.status === "rejected"))
      expect(outcome.reason).toBeInstanceOf(SubscriptionLimitError);
    expect(verifications).toHaveLength(limits.webhooks);
    await expect(create()).rejects.toBeInstanceOf(SubscriptionLimitError);
    await deleteWebhook(deps(), OWNER.forwarderId, 1);
    await create();
  });

  it("PUT with the same Url keeps a verified webhook verified without a new challenge", async () => {
    const webhook = await create();
    const updated = await updateWebhook(deps(), {
      forwarderId: OWNER.forwarderId,
      id: webhook.id,
      request: request({ Event: "NFD" }),
      now: NOW,
    });
    expect(updated.verification.status).toBe("verified");
    expect(verifications).toHaveLength(1);
  });

  it("PUT with the same Url of an unverified webhook sends no challenge (verify does, on demand)", async () => {
    nextOutcome = { ok: false, reason: "HTTP 204" };
    const webhook = await create();
    const updated = await updateWebhook(deps(), {
      forwarderId: OWNER.forwarderId,
      id: webhook.id,
      request: request({ Event: "NFD" }),
      now: NOW,
    });
    expect(verifications).toHaveLength(1);
    expect(updated).toMatchObject({ enabled: true, verification: { status: "failed" } });
  });

  it("PUT with a new Url needs the secrets again (else 400, nothing sent) and challenges it again", async () => {
    const webhook = await create({ Psk: "0123456789abcdef-psk" });
    const kept = await updateWebhook(deps(), {
      forwarderId: OWNER.forwarderId,
      id: webhook.id,
      request: request({ Url: "https://elsewhere.example.com/x" }),
      now: NOW,
    }).catch((error: unknown) => error);
    expect(kept).toBeInstanceOf(InvalidFieldsError);
    expect((kept as InvalidFieldsError).errors.map((e) => e.field)).toEqual(["Psk"]);
    expect(verifications).toHaveLength(1);
    nextOutcome = { ok: false, reason: "HTTP 404" };
    const updated = await updateWebhook(deps(), {
      forwarderId: OWNER.forwarderId,
      id: webhook.id,
      request: request({ Url: "https://elsewhere.example.com/x", Psk: "another-psk-0123456" }),
      now: NOW,
    });
    expect(verifications).toHaveLength(2);
    expect(verifications[1]?.psk).toBe("another-psk-0123456");
    expect(updated.verification.status).toBe("failed");
    expect(updated.psk).toBe("another-psk-0123456");
  });

  it("PUT Enable:true on a webhook a 410 switched off re-runs the challenge before it is active again", async () => {
    const webhook = await create();
    await subscriptions.putWebhook(disableWebhook(webhook, "receiver answered 410 Gone", NOW));
    nextOutcome = { ok: false, reason: "receiver answered HTTP 404, expected 2xx" };
    const stillGone = await updateWebhook(deps(), {
      forwarderId: OWNER.forwarderId,
      id: webhook.id,
      request: request(),
      now: NOW,
    });
    expect(verifications).toHaveLength(2);
    expect(stillGone).toMatchObject({ enabled: true, disabledReason: null });
    expect(stillGone.verification).toMatchObject({ status: "failed", reason: /HTTP 404/ });
    // Switched on again by its owner: active although the proof failed (not a gate).
    expect(isWebhookActive((await subscriptions.getWebhook(OWNER.forwarderId, webhook.id)) as Webhook)).toBe(
      true,
    );
  });

  it("verify re-runs the challenge and stores the outcome", async () => {
    nextOutcome = { ok: false, reason: "timeout" };
    const webhook = await create();
    nextOutcome = { ok: true };
    const verified = await verifyWebhook(deps(), {
      forwarderId: OWNER.forwarderId,
      id: webhook.id,
      now: NOW,
    });
    expect(verified.verification.status).toBe("verified");
    expect((await subscriptions.getWebhook(OWNER.forwarderId, webhook.id))?.verification.status).toBe(
      "verified",
    );
  });

  it("GET and list carry the newest delivery (the last delivery outcome), null before any", async () => {
    const webhook = await create();
    const none = await getWebhook({ subscriptions, deliveries }, OWNER.forwarderId, webhook.id);
    expect(none).toEqual({ webhook, lastDelivery: null });
    await deliveries.create(deliveryRecord("evt-old", webhook.id, { createdAt: "2026-03-14T09:00:00Z" }));
    await deliveries.create(
      deliveryRecord("evt-new", webhook.id, { status: "delivered", createdAt: "2026-03-14T10:00:00Z" }),
    );
    const read = await getWebhook({ subscriptions, deliveries }, OWNER.forwarderId, webhook.id);
    expect(read.lastDelivery).toMatchObject({ eventId: "evt-new", status: "delivered" });
    const listed = await listWebhooks({ subscriptions, deliveries }, OWNER.forwarderId, {
      page: 1,
      pageSize: 10,
    });
    expect(listed.total).toBe(1);
    expect(listed.items[0]?.lastDelivery?.eventId).toBe("evt-new");
  });

  it("another forwarder can neither update, verify nor delete it", async () => {
    const webhook = await create();
    const stranger = { forwarderId: STRANGER.forwarderId, id: webhook.id, now: NOW };
    await expect(updateWebhook(deps(), { ...stranger, request: request() })).rejects.toBeInstanceOf(
      SubscriptionNotFoundError,
    );
    await expect(verifyWebhook(deps(), stranger)).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    await expect(deleteWebhook(deps(), STRANGER.forwarderId, webhook.id)).rejects.toBeInstanceOf(
      SubscriptionNotFoundError,
    );
    expect(await subscriptions.getWebhook(OWNER.forwarderId, webhook.id)).toEqual(webhook);
  });
});

describe("deliveries", () => {
  const queue = { enqueue: async (jobs: readonly DeliveryJob[]) => void queued.push(...jobs) };
  const replayDeps = () => ({ subscriptions, deliveries, queue });

  it("lists and replays a parked delivery as a new attempt after the last logged one", async () => {
    const webhook = await create();
    const record = deliveryRecord("evt-1", webhook.id);
    await deliveries.create(record);
    for (const attempt of [1, 2]) {
      await deliveries.recordAttempt(
        record.deliveryId,
        {
          attempt,
          at: NOW,
          status: 500,
          latencyMs: 3,
          outcome: attempt === 2 ? "parked" : "retry",
          detail: "",
        },
        attempt === 2 ? "parked" : "retrying",
      );
    }
    const ref = { forwarderId: OWNER.forwarderId, kind: "webhook" as const, id: webhook.id };
    const list = await listSubscriptionDeliveries(replayDeps(), {
      subscription: ref,
      page: { page: 1, pageSize: 10 },
    });
    expect(list.items.map((d) => d.deliveryId)).toEqual([record.deliveryId]);
    const { job } = await replayDelivery(replayDeps(), {
      subscription: ref,
      deliveryId: record.deliveryId,
      now: NOW,
    });
    expect(job.attempt).toBe(3);
    expect(queued).toEqual([{ ...record.job, attempt: 3 }]);
  });

  it("a delivery still being attempted is not replayed", async () => {
    const webhook = await create();
    const record = deliveryRecord("evt-2", webhook.id);
    await deliveries.create(record);
    const ref = { forwarderId: OWNER.forwarderId, kind: "webhook" as const, id: webhook.id };
    await expect(
      replayDelivery(replayDeps(), { subscription: ref, deliveryId: record.deliveryId, now: NOW }),
    ).rejects.toBeInstanceOf(DeliveryInProgressError);
    const almostStalled = new Date(Date.parse(NOW) + STALLED_AFTER_SECONDS * 1000).toISOString();
    await expect(
      replayDelivery(replayDeps(), { subscription: ref, deliveryId: record.deliveryId, now: almostStalled }),
    ).rejects.toBeInstanceOf(DeliveryInProgressError);
    expect(queued).toEqual([]);
  });

  it("a delivery stuck in progress (its job lost) can be replayed once it has stalled", async () => {
    const webhook = await create();
    const record = deliveryRecord("evt-4", webhook.id, { status: "retrying" });
    await deliveries.create(record);
    const ref = { forwarderId: OWNER.forwarderId, kind: "webhook" as const, id: webhook.id };
    const stalled = new Date(Date.parse(NOW) + STALLED_AFTER_SECONDS * 1000 + 1000).toISOString();
    const { job } = await replayDelivery(replayDeps(), {
      subscription: ref,
      deliveryId: record.deliveryId,
      now: stalled,
    });
    expect(job.attempt).toBe(2);
    expect(queued).toEqual([{ ...record.job, attempt: 2 }]);
  });

  it("another forwarder's subscription or a delivery of another subscription is not found", async () => {
    const webhook = await create();
    const other = await create();
    const record = deliveryRecord("evt-3", webhook.id, { status: "parked" });
    await deliveries.create(record);
    const stranger = { forwarderId: STRANGER.forwarderId, kind: "webhook" as const, id: webhook.id };
    await expect(
      listSubscriptionDeliveries(replayDeps(), { subscription: stranger, page: { page: 1, pageSize: 10 } }),
    ).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    await expect(
      replayDelivery(replayDeps(), { subscription: stranger, deliveryId: record.deliveryId, now: NOW }),
    ).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    const wrongHook = { forwarderId: OWNER.forwarderId, kind: "webhook" as const, id: other.id };
    await expect(
      replayDelivery(replayDeps(), { subscription: wrongHook, deliveryId: record.deliveryId, now: NOW }),
    ).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    expect(queued).toEqual([]);
  });
});

describe("customer endpoints", () => {
  const body = (overrides: Record<string, unknown> = {}) =>
    v.parse(CustomerEndpointRequestSchema, {
      ForwarderIdentifier: "FWDOWNERX",
      Url: "https://customer.example.com/in",
      HeaderName: "apiKey",
      HeaderValue: "key-1234567890",
      ...overrides,
    });

  it("registers under the given GUID and lists", async () => {
    const endpoint = await registerCustomerEndpoint(
      { subscriptions, targets: verifier },
      { request: body(), id: "3F2504E0-4F89-41D3-9A0C-0305E82C3301", now: NOW },
    );
    expect(endpoint.id).toBe("3f2504e0-4f89-41d3-9a0c-0305e82c3301");
    expect((await listCustomerEndpoints({ subscriptions }, { page: 1, pageSize: 10 })).items).toEqual([
      endpoint,
    ]);
  });

  it("refuses a Url the service may not call", async () => {
    await expect(
      registerCustomerEndpoint(
        { subscriptions, targets: verifier },
        { request: body({ Url: "http://10.0.0.1/x" }), id: "3f2504e0-4f89-41d3-9a0c-0305e82c3301", now: NOW },
      ),
    ).rejects.toBeInstanceOf(UnusableReferenceError);
    expect(subscriptions.operations.putCustomerEndpoint ?? 0).toBe(0);
  });
});
