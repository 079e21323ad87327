/** Notification-rule use cases over the in-memory repository: ownership, NotifyTo, limits, writes. */
import * as v from "valibot";
import { beforeEach, describe, expect, it } from "vitest";
import { configFrom } from "../../../functions/adapters/config.ts";
import {
  SubscriptionLimitError,
  SubscriptionNotFoundError,
  UnusableReferenceError,
} from "../../../functions/core/errors.ts";
import {
  type CustomerEndpoint,
  NotificationRuleRequestSchema,
  subscriptionIndexKeys,
} from "../../../functions/core/notifications/index.ts";
import type { ProActiveSweepQueue, ProActiveSweepRequest } from "../../../functions/core/ports/checks.ts";
import { createNotificationRule } from "../../../functions/core/use-cases/create-notification-rule.ts";
import { deleteNotificationRule } from "../../../functions/core/use-cases/delete-notification-rule.ts";
import { disableNotificationRule } from "../../../functions/core/use-cases/disable-notification-rule.ts";
import { enableNotificationRule } from "../../../functions/core/use-cases/enable-notification-rule.ts";
import { getNotificationRule } from "../../../functions/core/use-cases/get-notification-rule.ts";
import { listNotificationRules } from "../../../functions/core/use-cases/list-notification-rules.ts";
import { updateNotificationRule } from "../../../functions/core/use-cases/update-notification-rule.ts";
import { emailRuleBody, NOW, OWNER, STRANGER, urlRuleBody } from "../../adapters/subscriptions/fixtures.ts";
import {
  type MemorySubscriptionRepository,
  memorySubscriptionRepository,
} from "../../support/memory/subscription-repository.ts";
import { ENDPOINT_GUID } from "../notifications/helpers.ts";

let repo: MemorySubscriptionRepository;
const limits = { rules: 3, webhooks: 2 };
const deps = () => ({ subscriptions: repo, limits });
const request = (body: Record<string, unknown>) => v.parse(NotificationRuleRequestSchema, body);
const create = (body = emailRuleBody(), owner = OWNER) =>
  createNotificationRule(deps(), { owner, request: request(body), now: NOW });

const endpoint = (forwarderId: string, id = ENDPOINT_GUID): CustomerEndpoint => ({
  id,
  forwarderId,
  url: "https://customer.example.com/in",
  headerName: "apiKey",
  headerValue: "key-1234567890",
  createdAt: NOW,
});

beforeEach(() => {
  repo = memorySubscriptionRepository();
});

describe("create", () => {
  it("gives increasing ids and the caller's identity; the index is written", async () => {
    const first = await create();
    // Another address: an identical rule is refused.
    const second = await create(emailRuleBody({ NotifyTo: "second@forwarder.example" }));
    expect(second.id).toBeGreaterThan(first.id);
    expect(first.owner).toEqual(OWNER);
    expect(await repo.findCandidates(subscriptionIndexKeys({ kind: "rule", rule: first }))).toHaveLength(2);
  });

  it("Url rule: NotifyTo must be an endpoint registered for this forwarder", async () => {
    await expect(create(urlRuleBody())).rejects.toBeInstanceOf(UnusableReferenceError);
    await repo.putCustomerEndpoint(endpoint(STRANGER.forwarderId));
    const refused = await create(urlRuleBody()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnusableReferenceError);
    expect((refused as UnusableReferenceError).field).toBe("NotifyTo");
    expect(repo.operations.putRule ?? 0).toBe(0);
    expect(repo.operations.nextId ?? 0).toBe(0);
  });

  it("Url rule with this forwarder's endpoint (GUID in any case) is stored", async () => {
    await repo.putCustomerEndpoint(endpoint(OWNER.forwarderId));
    const rule = await create(urlRuleBody({ NotifyTo: ENDPOINT_GUID.toUpperCase() }));
    expect(rule.channel).toBe("Url");
  });

  it("refuses beyond the per-forwarder limit, counting only the caller's rules", async () => {
    // Distinct rules (an identical one is refused).
    const distinct = (i: number) => emailRuleBody({ NotifyTo: `ops${i}@forwarder.example` });
    for (let i = 0; i < 3; i++) await create(distinct(i));
    await expect(create(distinct(3))).rejects.toBeInstanceOf(SubscriptionLimitError);
    await expect(create(emailRuleBody(), STRANGER)).resolves.toMatchObject({ owner: STRANGER });
  });
});

describe("owner-only verbs", () => {
  it("get/update/enable/disable/delete of another forwarder's rule are not found and change nothing", async () => {
    const rule = await create();
    const verbs = [
      () => getNotificationRule(deps(), STRANGER.forwarderId, rule.id),
      () =>
        updateNotificationRule(deps(), {
          forwarderId: STRANGER.forwarderId,
          id: rule.id,
          request: request(emailRuleBody({ Event: "ARR" })),
          now: NOW,
        }),
      () =>
        disableNotificationRule(deps(), {
          forwarderId: STRANGER.forwarderId,
          id: rule.id,
          now: NOW,
        }),
      () => deleteNotificationRule(deps(), STRANGER.forwarderId, rule.id),
    ];
    for (const verb of verbs) await expect(verb()).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    expect(await getNotificationRule(deps(), OWNER.forwarderId, rule.id)).toEqual(rule);
    expect((await listNotificationRules(deps(), STRANGER.forwarderId, { page: 1, pageSize: 10 })).total).toBe(
      0,
    );
  });

  it("update keeps id, owner and creation time and re-indexes", async () => {
    const rule = await create(emailRuleBody({ Event: "DEP" }));
    const later = "2026-03-15T08:00:00Z";
    const updated = await updateNotificationRule(deps(), {
      forwarderId: OWNER.forwarderId,
      id: rule.id,
      request: request(emailRuleBody({ Event: "NFD" })),
      now: later,
    });
    expect(updated).toMatchObject({
      id: rule.id,
      owner: OWNER,
      createdAt: NOW,
      updatedAt: later,
      events: ["NFD"],
    });
    expect(await repo.findCandidates(subscriptionIndexKeys({ kind: "rule", rule }))).toEqual([]);
  });

  it("enable/disable switch and are idempotent", async () => {
    const rule = await create();
    const off = await disableNotificationRule(deps(), {
      forwarderId: OWNER.forwarderId,
      id: rule.id,
      now: NOW,
    });
    expect(off.enabled).toBe(false);
    const writes = repo.operations.putRule;
    await disableNotificationRule(deps(), {
      forwarderId: OWNER.forwarderId,
      id: rule.id,
      now: NOW,
    });
    expect(repo.operations.putRule).toBe(writes);
    const on = await enableNotificationRule(deps(), {
      forwarderId: OWNER.forwarderId,
      id: rule.id,
      now: NOW,
    });
    expect(on.enabled).toBe(true);
  });

  it("delete returns the rule and removes its index entries", async () => {
    const rule = await create();
    expect(await deleteNotificationRule(deps(), OWNER.forwarderId, rule.id)).toEqual(rule);
    expect(await repo.findCandidates(subscriptionIndexKeys({ kind: "rule", rule }))).toEqual([]);
    await expect(deleteNotificationRule(deps(), OWNER.forwarderId, rule.id)).rejects.toBeInstanceOf(
      SubscriptionNotFoundError,
    );
  });
});

describe("ProActive sweep requests (the sweep itself runs off the request path)", () => {
  let queued: ProActiveSweepRequest[];
  let storedWhenQueued: boolean[];
  const sweeps: ProActiveSweepQueue = {
    async request(sweep) {
      queued.push(sweep);
      // The handler re-reads the rule: it must be stored by the time the request is queued.
      storedWhenQueued.push(
        (await repo.getRule(sweep.forwarderId, sweep.ruleId))?.updatedAt === sweep.ruleUpdatedAt,
      );
    },
  };
  const withSweeps = () => ({ ...deps(), proActiveSweeps: sweeps });
  const proActive = (overrides: Record<string, unknown> = {}) =>
    request(emailRuleBody({ EventAlert: false, ProActiveAlert: true, ProActiveTime: 240, ...overrides }));
  beforeEach(() => {
    queued = [];
    storedWhenQueued = [];
  });

  it("create of an enabled ProActive rule queues one first page, after storing the rule", async () => {
    const rule = await createNotificationRule(withSweeps(), { owner: OWNER, request: proActive(), now: NOW });
    expect(queued).toEqual([
      {
        kind: "proactive-sweep",
        ruleId: rule.id,
        forwarderId: OWNER.forwarderId,
        ruleUpdatedAt: NOW,
        cursor: null,
      },
    ]);
    expect(storedWhenQueued).toEqual([true]);
  });

  it("a disabled or non-ProActive rule queues nothing", async () => {
    await createNotificationRule(withSweeps(), {
      owner: OWNER,
      request: proActive({ Enabled: false }),
      now: NOW,
    });
    await createNotificationRule(withSweeps(), { owner: OWNER, request: request(emailRuleBody()), now: NOW });
    expect(queued).toEqual([]);
  });

  it("update and enable queue a sweep for the rule as saved; disable queues none", async () => {
    const rule = await createNotificationRule(withSweeps(), {
      owner: OWNER,
      request: proActive({ Enabled: false }),
      now: NOW,
    });
    const at = (minute: number) => `2026-03-15T08:0${minute}:00Z`;
    const id = rule.id;
    const forwarderId = OWNER.forwarderId;
    await enableNotificationRule(withSweeps(), { forwarderId, id, now: at(1) });
    await updateNotificationRule(withSweeps(), {
      forwarderId,
      id,
      request: proActive({ ProActiveTime: 60 }),
      now: at(2),
    });
    await disableNotificationRule(withSweeps(), { forwarderId, id, now: at(3) });
    expect(queued.map((q) => [q.ruleId, q.ruleUpdatedAt])).toEqual([
      [id, at(1)],
      [id, at(2)],
    ]);
    expect(storedWhenQueued).toEqual([true, true]);
  });
});

describe("limits from the environment", () => {
  const subscriptionLimitsFrom = (env: Record<string, string>) => configFrom(env).subscriptionLimits();

  it("reads positive integers and falls back to 500/50; anything else fails naming the variable", () => {
    expect(subscriptionLimitsFrom({})).toEqual({ rules: 500, webhooks: 50 });
    expect(subscriptionLimitsFrom({ MAX_RULES_PER_FORWARDER: "7" })).toEqual({ rules: 7, webhooks: 50 });
    expect(() =>
      subscriptionLimitsFrom({ MAX_RULES_PER_FORWARDER: "7", MAX_WEBHOOKS_PER_FORWARDER: "x" }),
    ).toThrow('MAX_WEBHOOKS_PER_FORWARDER must be a whole number of at least 1, got "x"');
    expect(() => subscriptionLimitsFrom({ MAX_RULES_PER_FORWARDER: "-1" })).toThrow(
      'MAX_RULES_PER_FORWARDER must be a whole number of at least 1, got "-1"',
    );
  });
});
