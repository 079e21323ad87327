/**
 * The rule a notification job names, as stored now: shared by the channels a rule can send through
 * (its `channel`, Email or Url, read at delivery: a rule changed meanwhile sends the way it says now).
 */
import type { DeliveryJob, NotificationJob, SubscriptionRepository } from "../../ports/notifications.ts";
import { matchesFilters } from "../matching.ts";
import type { NotificationRule } from "../rules.ts";
import type { AttemptContext, Resolution } from "./channel.ts";

/**
 * The job's rule while it is stored, enabled and still matches the event; else why nothing is sent.
 * Read once per attempt, however many rule channels ask.
 */
export function currentRule(
  job: NotificationJob,
  subscriptions: SubscriptionRepository,
  attempt: AttemptContext,
): Promise<Resolution<NotificationRule>> {
  return attempt.readOnce("rule", async (): Promise<Resolution<NotificationRule>> => {
    const { target, event } = job;
    const rule = await subscriptions.getRule(target.forwarderId, target.subscriptionId);
    if (!rule) return { ok: false, reason: `rule ${target.subscriptionId} was deleted` };
    if (!rule.enabled) return { ok: false, reason: `rule ${rule.id} is disabled` };
    if (!matchesFilters({ kind: "rule", rule }, event))
      return { ok: false, reason: `rule ${rule.id} no longer matches this event` };
    return { ok: true, target: rule };
  });
}

/** A notification job for a rule (not a webhook's, not a status request). */
export const isRuleJob = (job: DeliveryJob): job is NotificationJob =>
  job.kind === undefined && job.target.subscriptionKind === "rule";
