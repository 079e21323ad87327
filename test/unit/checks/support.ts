/** In-memory wiring for the due-check use cases: route maps via ingest, rules, a recording scheduler. */
import {
  type NotificationRule,
  type RuleAlert,
  type Subscription,
  subscriptionIndexKeys,
} from "../../../functions/core/notifications/index.ts";
import type {
  CheckScheduler,
  PlannedCheck,
  ProActiveSweepQueue,
  ProActiveSweepRequest,
  QueuedCheck,
} from "../../../functions/core/ports/checks.ts";
import type { SubscriptionRepository } from "../../../functions/core/ports/notifications.ts";
import { OWNER } from "../use-cases/support.ts";

/** findCandidates over the real index keys (what the DynamoDB adapter stores), and getRule. */
export class RuleStore implements Pick<SubscriptionRepository, "findCandidates" | "getRule"> {
  readonly rules: NotificationRule[] = [];
  lookups = 0;
  add(rule: NotificationRule): NotificationRule {
    this.rules.push(rule);
    return rule;
  }
  /** Replaces the stored rule of that id (an update, a disable) or removes it (null). */
  replace(id: number, rule: NotificationRule | null): void {
    const index = this.rules.findIndex((r) => r.id === id);
    if (index >= 0) this.rules.splice(index, 1);
    if (rule) this.rules.push(rule);
  }
  async getRule(forwarderId: string, id: number): Promise<NotificationRule | null> {
    const found = this.rules.find((r) => r.id === id && r.owner.forwarderId === forwarderId);
    return found ? structuredClone(found) : null;
  }
  async findCandidates(indexKeys: readonly string[]): Promise<Subscription[]> {
    this.lookups += 1;
    return this.rules
      .map((rule): Subscription => ({ kind: "rule", rule: structuredClone(rule) }))
      .filter((s) => subscriptionIndexKeys(s).some((key) => indexKeys.includes(key)));
  }
}

/**
 * Records what was scheduled: `scheduled` is keyed like the adapter (one per AWB+milestone+check+
 * minutes, so it shows the end state), `upserts` lists every schedule request ever made (so a test
 * can count them: the map de-duplicates by construction).
 */
export class RecordingScheduler implements CheckScheduler {
  readonly scheduled = new Map<string, PlannedCheck>();
  readonly upserts: PlannedCheck[] = [];
  readonly queued: QueuedCheck[] = [];
  calls = 0;
  async schedule(checks: readonly PlannedCheck[]) {
    this.calls += 1;
    for (const check of checks) {
      this.scheduled.set(nameOf(check.input), structuredClone(check));
      this.upserts.push(structuredClone(check));
    }
  }
  async enqueue(checks: readonly QueuedCheck[]) {
    this.queued.push(...structuredClone(checks));
  }
  get(milestoneKey: string, check: "missing" | "proactive", minutes?: number): PlannedCheck | undefined {
    return [...this.scheduled.values()].find(
      (c) => c.input.milestoneKey === milestoneKey && c.input.check === check && c.input.minutes === minutes,
    );
  }
}

/** Sweep requests queued (the rule routes' first page, and each continuation). */
export class RecordingSweepQueue implements ProActiveSweepQueue {
  readonly requests: ProActiveSweepRequest[] = [];
  failNext = 0;
  async request(sweep: ProActiveSweepRequest) {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error("queue unavailable");
    }
    this.requests.push(structuredClone(sweep));
  }
}

const nameOf = (input: PlannedCheck["input"]) =>
  `${input.awb}/${input.milestoneKey}/${input.check}/${input.minutes ?? ""}`;

let nextRuleId = 1;
export function rule(alert: RuleAlert, overrides: Partial<NotificationRule> = {}): NotificationRule {
  return {
    id: nextRuleId++,
    owner: {
      forwarderId: OWNER.forwarderId,
      agentCode: OWNER.agentCode,
      agentCass: OWNER.agentCass,
      agentStation: OWNER.agentStation,
    },
    channel: "Email",
    notifyTo: "ops@forwarder.example",
    headerItems: ["AWB", "MIL", "NTF"],
    format: "Html",
    airlinePrefix: null,
    awbSerial: null,
    events: ["DEP"],
    alert,
    destination: null,
    origin: null,
    enabled: true,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    ...overrides,
  };
}
