/**
 * The behaviour every SubscriptionRepository / DeliveryRepository must have, run against the DynamoDB
 * adapters (DynamoDB Local) and the in-memory ones, so use-case tests on memory mean something.
 */
import { describe, expect, it } from "vitest";
import {
  type CustomerEndpoint,
  eventLookupKeys,
  markWebhookVerified,
  subscriptionIndexKeys,
} from "../../../functions/core/notifications/index.ts";
import type {
  DeliveryRepository,
  SubscriptionRepository,
} from "../../../functions/core/ports/notifications.ts";
import { makeEvent, NOW, OWNER, recentDeliveryRecord, rule, STRANGER, webhook, XTD } from "./fixtures.ts";

const PAGE = { page: 1, pageSize: 100 };

/** `make` may return the same repository each time: every test uses fresh forwarder ids. */
export function subscriptionRepositoryContract(make: () => SubscriptionRepository) {
  let n = 0;
  const owner = () => {
    n += 1;
    // Fresh ids per test: the DynamoDB tables are shared by the whole file.
    return {
      ...OWNER,
      forwarderId: `fwd-${n}-${Math.random().toString(36).slice(2, 8)}`,
      agentCode: String(1_000_000 + Math.floor(Math.random() * 8_999_999)),
    };
  };

  describe("subscription repository", () => {
    it("nextId increases per kind and never repeats", async () => {
      const repo = make();
      const a = await repo.nextId("rule");
      const b = await repo.nextId("rule");
      const w = await repo.nextId("webhook");
      expect(b).toBeGreaterThan(a);
      expect(Number.isInteger(w)).toBe(true);
      const many = await Promise.all(Array.from({ length: 20 }, () => repo.nextId("rule")));
      expect(new Set(many).size).toBe(20);
    });

    it("stores, reads, lists in id order and counts rules per forwarder only", async () => {
      const repo = make();
      const me = owner();
      const other = owner();
      for (const id of [3, 1, 2]) await repo.putRule(rule(id, {}, me));
      await repo.putRule(rule(4, {}, other));
      expect(await repo.getRule(me.forwarderId, 2)).toEqual(rule(2, {}, me));
      expect(await repo.getRule(other.forwarderId, 2)).toBeNull();
      const page = await repo.listRules(me.forwarderId, { page: 1, pageSize: 2 });
      expect(page.total).toBe(3);
      expect(page.items.map((r) => r.id)).toEqual([1, 2]);
      expect((await repo.listRules(me.forwarderId, { page: 2, pageSize: 2 })).items.map((r) => r.id)).toEqual(
        [3],
      );
      expect(await repo.countSubscriptions(me.forwarderId, "rule")).toBe(3);
      expect(await repo.countSubscriptions(me.forwarderId, "webhook")).toBe(0);
    });

    it("insert keeps the per-forwarder limit under concurrency; deletes free slots; legacy items count", async () => {
      const repo = make();
      const me = owner();
      // Stored before the counter existed (plain puts): the first insert seeds the counter from them.
      await repo.putWebhook(webhook(900_001, {}, me));
      await repo.putWebhook(webhook(900_002, {}, me));
      const results = await Promise.all(
        Array.from({ length: 12 }, () => repo.insertWebhook(webhook(0, {}, me), 5)),
      );
      const stored = results.filter((w) => w !== null);
      expect(stored).toHaveLength(3);
      // Each got a fresh id and is stored under it.
      expect(new Set(stored.map((w) => w.id)).size).toBe(3);
      for (const w of stored) expect(await repo.getWebhook(me.forwarderId, w.id)).toEqual(w);
      expect(await repo.countSubscriptions(me.forwarderId, "webhook")).toBe(5);
      const idBefore = await repo.nextId("webhook");
      expect(await repo.insertWebhook(webhook(0, {}, me), 5)).toBeNull();
      // A refused insert takes no id.
      expect(await repo.nextId("webhook")).toBe(idBefore + 1);
      expect(await repo.deleteWebhook(me.forwarderId, 900_001)).toBe(true);
      expect(await repo.deleteWebhook(me.forwarderId, 900_001)).toBe(false);
      expect(await repo.insertWebhook(webhook(0, {}, me), 5)).not.toBeNull();
      expect(await repo.insertWebhook(webhook(0, {}, me), 5)).toBeNull();
      // Rules count apart from webhooks, and another forwarder apart from this one.
      expect(await repo.insertRule(rule(0, {}, me), 1)).not.toBeNull();
      expect(await repo.insertRule(rule(0, {}, me), 1)).toBeNull();
      expect(await repo.insertRule(rule(0, {}, owner()), 1)).not.toBeNull();
    });

    it("findCandidates returns a subscription under each of its keys, once, and only there", async () => {
      const repo = make();
      const me = owner();
      const r = rule(11, { Event: "DEP" }, me);
      await repo.putRule(r);
      const keys = subscriptionIndexKeys({ kind: "rule", rule: r });
      expect(keys).toHaveLength(2);
      const found = await repo.findCandidates(keys);
      expect(found).toEqual([{ kind: "rule", rule: r }]);
      const arrEvent = makeEvent({
        name: "ARR",
        audience: { ownerAgent: { code: me.agentCode, cass: me.agentCass }, xtdForwarders: [] },
      });
      expect(await repo.findCandidates(eventLookupKeys(arrEvent))).toEqual([]);
    });

    it("an update moves the index: keys no longer listened to stop returning it", async () => {
      const repo = make();
      const me = owner();
      const before = rule(21, { Event: "DEP,ARR" }, me);
      await repo.putRule(before);
      const after = rule(21, { Event: "NFD" }, me);
      await repo.putRule(after);
      const depKeys = subscriptionIndexKeys({ kind: "rule", rule: rule(21, { Event: "DEP" }, me) });
      expect(await repo.findCandidates(depKeys)).toEqual([]);
      const nfdKeys = subscriptionIndexKeys({ kind: "rule", rule: after });
      expect(await repo.findCandidates(nfdKeys)).toEqual([{ kind: "rule", rule: after }]);
    });

    it("delete removes the subscription and its index items; deleting again says false", async () => {
      const repo = make();
      const me = owner();
      const r = rule(31, {}, me);
      await repo.putRule(r);
      expect(await repo.deleteRule(STRANGER.forwarderId, 31)).toBe(false);
      expect(await repo.deleteRule(me.forwarderId, 31)).toBe(true);
      expect(await repo.getRule(me.forwarderId, 31)).toBeNull();
      expect(await repo.findCandidates(subscriptionIndexKeys({ kind: "rule", rule: r }))).toEqual([]);
      expect(await repo.deleteRule(me.forwarderId, 31)).toBe(false);
    });

    it("webhooks: stored with secrets and verification, indexed, listed and deleted", async () => {
      const repo = make();
      const me = owner();
      const w = markWebhookVerified(webhook(41, { Psk: "a-very-secret-key-123" }, me), NOW);
      await repo.putWebhook(w);
      await repo.putWebhook(webhook(42, {}, me));
      expect(await repo.getWebhook(me.forwarderId, 41)).toEqual(w);
      expect(await repo.getRule(me.forwarderId, 41)).toBeNull();
      const list = await repo.listWebhooks(me.forwarderId, PAGE);
      expect(list.items.map((x) => x.id)).toEqual([41, 42]);
      expect(await repo.countSubscriptions(me.forwarderId, "webhook")).toBe(2);
      const keys = subscriptionIndexKeys({ kind: "webhook", webhook: w });
      expect(await repo.findCandidates(keys)).toHaveLength(2);
      expect(await repo.deleteWebhook(me.forwarderId, 41)).toBe(true);
      expect((await repo.findCandidates(keys)).map((s) => s.kind === "webhook" && s.webhook.id)).toEqual([
        42,
      ]);
    });

    it("concurrent updates of one rule leave exactly the last one's index", async () => {
      const repo = make();
      const me = owner();
      await repo.putRule(rule(51, { Event: "DEP" }, me));
      const events = ["ARR", "RCF", "NFD", "DLV", "AWD"];
      await Promise.all(events.map((event) => repo.putRule(rule(51, { Event: event }, me))));
      const stored = await repo.getRule(me.forwarderId, 51);
      const live = stored?.events[0];
      for (const event of ["DEP", ...events]) {
        const found = await repo.findCandidates(
          subscriptionIndexKeys({ kind: "rule", rule: rule(51, { Event: event }, me) }),
        );
        expect(found.length, event).toBe(event === live ? 1 : 0);
      }
    });

    it("XTD key and owner key of the same forwarder yield the subscription once", async () => {
      const repo = make();
      const me = { ...XTD, forwarderId: owner().forwarderId };
      const r = rule(61, { Event: "DEP" }, me);
      await repo.putRule(r);
      const event = makeEvent({
        audience: { ownerAgent: { code: me.agentCode, cass: me.agentCass }, xtdForwarders: [me.forwarderId] },
      });
      expect(await repo.findCandidates(eventLookupKeys(event))).toHaveLength(1);
    });

    it("customer endpoints: stored, read case-insensitively, listed in creation order", async () => {
      const repo = make();
      const base = Math.random().toString(16).slice(2, 10).padEnd(8, "0");
      const endpoint = (i: number, createdAt: string): CustomerEndpoint => ({
        id: `${base}-0000-4000-8000-00000000000${i}`,
        forwarderId: "fwd-endpoints",
        url: `https://customer.example.com/${i}`,
        headerName: "apiKey",
        headerValue: `secret-value-${i}`,
        createdAt,
      });
      await repo.putCustomerEndpoint(endpoint(2, "2026-03-14T12:00:02.000Z"));
      await repo.putCustomerEndpoint(endpoint(1, "2026-03-14T12:00:01.000Z"));
      expect(await repo.getCustomerEndpoint(endpoint(1, "").id.toUpperCase())).toEqual(
        endpoint(1, "2026-03-14T12:00:01.000Z"),
      );
      expect(await repo.getCustomerEndpoint(`${base}-0000-4000-8000-000000000009`)).toBeNull();
      const ids = (await repo.listCustomerEndpoints({ page: 1, pageSize: 500 })).items
        .filter((e) => e.id.startsWith(base))
        .map((e) => e.id.slice(-1));
      expect(ids).toEqual(["1", "2"]);
    });
  });
}

export function deliveryRepositoryContract(make: () => DeliveryRepository) {
  describe("delivery repository", () => {
    const unique = () => `evt-${Math.random().toString(36).slice(2, 10)}`;

    it("create is idempotent: the second create returns false and keeps the log", async () => {
      const repo = make();
      const record = recentDeliveryRecord(unique());
      expect(await repo.create(record)).toBe(true);
      await repo.recordAttempt(
        record.deliveryId,
        { attempt: 1, at: NOW, status: 500, latencyMs: 12, outcome: "retry", detail: "HTTP 500" },
        "retrying",
      );
      expect(await repo.create(record)).toBe(false);
      const stored = await repo.get(record.deliveryId);
      expect(stored?.status).toBe("retrying");
      expect(stored?.attempts).toHaveLength(1);
      expect(stored?.job).toEqual(record.job);
      expect(stored?.updatedAt).toBe(NOW);
    });

    it("latestForSubscription is the newest delivery of that subscription, null without one", async () => {
      const repo = make();
      const webhookId = 100_000 + Math.floor(Math.random() * 800_000);
      expect(await repo.latestForSubscription("webhook", webhookId)).toBeNull();
      const recent = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
      await repo.create({ ...recentDeliveryRecord(unique(), webhookId), createdAt: recent(10) });
      const newest = { ...recentDeliveryRecord(unique(), webhookId), createdAt: recent(1) };
      await repo.create(newest);
      await repo.create({ ...recentDeliveryRecord(unique(), webhookId + 1), createdAt: recent(0) });
      expect((await repo.latestForSubscription("webhook", webhookId))?.deliveryId).toBe(newest.deliveryId);
      expect(await repo.latestForSubscription("rule", webhookId)).toBeNull();
    });

    it("get of an unknown delivery is null; recordAttempt on it throws", async () => {
      const repo = make();
      expect(await repo.get("nope:webhook-1")).toBeNull();
      await expect(
        repo.recordAttempt(
          "nope:webhook-1",
          { attempt: 1, at: NOW, status: 200, latencyMs: 1, outcome: "delivered", detail: "" },
          "delivered",
        ),
      ).rejects.toThrow();
    });

    it("keeps the last 20 attempts with details truncated to 1000 characters", async () => {
      const repo = make();
      const record = recentDeliveryRecord(unique());
      await repo.create(record);
      for (let attempt = 1; attempt <= 23; attempt++) {
        await repo.recordAttempt(
          record.deliveryId,
          {
            attempt,
            at: `2026-03-14T12:${String(attempt).padStart(2, "0")}:00.000Z`,
            status: 503,
            latencyMs: attempt,
            outcome: "retry",
            detail: "x".repeat(5000),
          },
          attempt === 23 ? "parked" : "retrying",
        );
      }
      const stored = await repo.get(record.deliveryId);
      expect(stored?.attempts.map((a) => a.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => i + 4));
      expect(stored?.attempts.every((a) => a.detail.length === 1000)).toBe(true);
      expect(stored?.status).toBe("parked");
      expect(stored?.updatedAt).toBe("2026-03-14T12:23:00.000Z");
    });

    it("concurrent attempts are all logged (no lost update)", async () => {
      const repo = make();
      const record = recentDeliveryRecord(unique());
      await repo.create(record);
      await Promise.all(
        [1, 2, 3, 4].map((attempt) =>
          repo.recordAttempt(
            record.deliveryId,
            { attempt, at: NOW, status: 500, latencyMs: 1, outcome: "retry", detail: "" },
            "retrying",
          ),
        ),
      );
      const attempts = (await repo.get(record.deliveryId))?.attempts.map((a) => a.attempt) ?? [];
      expect([...attempts].sort()).toEqual([1, 2, 3, 4]);
    });

    it("lists a subscription's deliveries newest first, paged, and nobody else's", async () => {
      const repo = make();
      const webhookId = 100000 + Math.floor(Math.random() * 100000);
      const ids: string[] = [];
      // Recent: deliveries older than the 30-day retention are no longer listed.
      const base = Date.now() - 60_000;
      for (let i = 0; i < 5; i++) {
        const at = new Date(base + i * 1000).toISOString();
        const record = recentDeliveryRecord(unique(), webhookId, { createdAt: at, updatedAt: at });
        ids.push(record.deliveryId);
        await repo.create(record);
      }
      await repo.create(
        recentDeliveryRecord(unique(), webhookId + 1, { createdAt: new Date(base).toISOString() }),
      );
      const first = await repo.listForSubscription("webhook", webhookId, { page: 1, pageSize: 2 });
      expect(first.total).toBe(5);
      expect(first.items.map((r) => r.deliveryId)).toEqual([ids[4], ids[3]]);
      const last = await repo.listForSubscription("webhook", webhookId, { page: 3, pageSize: 2 });
      expect(last.items.map((r) => r.deliveryId)).toEqual([ids[0]]);
      expect((await repo.listForSubscription("rule", webhookId, PAGE)).total).toBe(0);
    });
  });
}
