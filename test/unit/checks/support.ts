/** In-memory wiring for the due-check use cases: route maps via ingest, rules, a recording scheduler. */
import {
  type NotificationRule,
  type RuleAlert,
  type Subscription,
  subscriptionIndexKeys,
} from "../../../functions/core/notifications/index.ts";
import type { SubscriptionRepository } from "../../../functions/core/use-cases/notification-ports.ts";
import type {
  CheckScheduler,
  PlannedCheck,
  QueuedCheck,
} from "../../../functions/core/use-cases/plan-due-checks.ts";
import { OWNER } from "../use-cases/support.ts";

/** findCandidates over the real index keys (what the DynamoDB adapter stores). */
export class RuleStore implements Pick<SubscriptionRepository, "findCandidates"> {
  readonly rules: NotificationRule[] = [];
  lookups = 0;
  add(rule: NotificationRule): NotificationRule {
    this.rules.push(rule);
    return rule;
  }
  async findCandidates(indexKeys: readonly string[]): Promise<Subscription[]> {
    this.lookups += 1;
    return this.rules
      .map((rule): Subscription => ({ kind: "rule", rule: structuredClone(rule) }))
      .filter((s) => subscriptionIndexKeys(s).some((key) => indexKeys.includes(key)));
  }
}

/** Records what was scheduled (keyed like the adapter: one per AWB+milestone+check+minutes). */
export class RecordingScheduler implements CheckScheduler {
  readonly scheduled = new Map<string, PlannedCheck>();
  readonly queued: QueuedCheck[] = [];
  calls = 0;
  async schedule(checks: readonly PlannedCheck[]) {
    this.calls += 1;
    for (const check of checks) this.scheduled.set(nameOf(check.input), structuredClone(check));
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
