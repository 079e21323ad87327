/**
 * Identical rules: two rules of one forwarder that would send the same thing to
 * the same place for the same events. A second one is refused (409): it could only double mail.
 * Compared: channel, NotifyTo (addresses case-insensitive), header items, format, carrier, AWB,
 * events (as a set), alert kind and interval, origin, destination. Not compared: Enabled (a disabled
 * twin is enabled, not created again), ids and times.
 */
import type { NotificationRule } from "./rules.ts";

/** A rule, or a rule about to be created (no id yet). */
type RuleLike = Omit<NotificationRule, "id"> & { id?: number };

function fingerprint(rule: RuleLike): string {
  return JSON.stringify([
    rule.channel,
    rule.notifyTo.trim().toLowerCase(),
    rule.headerItems,
    rule.format,
    rule.airlinePrefix,
    rule.awbSerial,
    [...rule.events].sort(),
    rule.alert,
    rule.origin,
    rule.destination,
  ]);
}

/** The first of `others` identical to `rule` (itself, by id, excluded), or null. */
export function identicalRule(rule: RuleLike, others: readonly NotificationRule[]): NotificationRule | null {
  const wanted = fingerprint(rule);
  return others.find((other) => other.id !== rule.id && fingerprint(other) === wanted) ?? null;
}
