/**
 * Which rules and webhooks hear about one domain event (DESIGN.md section 4 "Rules", section 9
 * "Ownership" and "Alerts").
 *
 * Why per-event cost does not grow with the total number of rules:
 * every rule/webhook is stored under index keys built from WHO may hear (its agent code + CASS, and
 * its forwarder id) and WHAT it listens to (alert kind + event name), one key per listened event:
 *     AGT#<agentCode>#<agentCass>#<Event|Missed|ProActive>#<EVENT>
 *     FWD#<forwarderId>#<Event|Missed|ProActive>#<EVENT>
 * An event is only audible to its AWB owner's agent and to the forwarders holding an XTD grant, so
 * `eventLookupKeys` yields 1 + |xtdForwarders| keys for one (kind, name) pair: a handful of exact-key
 * queries (DynamoDB partition keys in the adapter) whose results are only the subscriptions of those
 * few forwarders for that event. Rules of other forwarders, or of the same forwarders for other
 * events or alert kinds, are never read. `matchesFilters` then applies the cheap remaining filters
 * (carrier prefix, AWB, origin, destination, enabled, creation time, proactive interval) to that
 * small candidate set.
 * The cost is O(audience size + their subscriptions for this event), independent of the rule total.
 */
import type { DomainEvent, NotificationType } from "../events.ts";
import type { SubscriptionEventType } from "../one-record-server/subscriptions.ts";
import type { HeaderItemCode, SubscriberIdentity } from "./common.ts";
import type { NotificationRule } from "./rules.ts";
import { isWebhookActive, type Webhook, type WebhookPayloadType } from "./webhooks.ts";

/**
 * Optional extension of DomainEvent (not in events.ts): a ProActive event raised for one interval
 * carries it, so a 240-minute rule does not fire on a 60-minute check. Without it every ProActive
 * rule for the milestone matches (the due-check producer should set it).
 */
export type MatchableEvent = DomainEvent & { proActiveMinutes?: number };

export type Subscription = { kind: "rule"; rule: NotificationRule } | { kind: "webhook"; webhook: Webhook };

/** Unique across rules and webhooks (their integer ids are separate sequences). */
export function subscriptionKey(subscription: Subscription): string {
  return subscription.kind === "rule" ? `rule-${subscription.rule.id}` : `webhook-${subscription.webhook.id}`;
}

function ownerOf(subscription: Subscription): SubscriberIdentity {
  return subscription.kind === "rule" ? subscription.rule.owner : subscription.webhook.owner;
}

/** Webhooks hear actual occurrences only (and RMP/CAN); Missed/ProActive alerts are a rule concept. */
function alertKindOf(subscription: Subscription): NotificationType {
  return subscription.kind === "rule" ? subscription.rule.alert.kind : "Event";
}

function eventsOf(subscription: Subscription): readonly string[] {
  return subscription.kind === "rule" ? subscription.rule.events : subscription.webhook.events;
}

const agentKey = (code: string, cass: string, kind: NotificationType, event: string) =>
  `AGT#${code}#${cass}#${kind}#${event}`;
const forwarderKey = (forwarderId: string, kind: NotificationType, event: string) =>
  `FWD#${forwarderId}#${kind}#${event}`;

/**
 * Keys a subscription is stored under: per listened event, one for the owner path (its agent) and one
 * for the XTD path (its forwarder id). Stored whether enabled or not, so switching does not re-index;
 * `matchesFilters` drops disabled ones.
 */
export function subscriptionIndexKeys(subscription: Subscription): string[] {
  const owner = ownerOf(subscription);
  const kind = alertKindOf(subscription);
  return eventsOf(subscription).flatMap((event) => [
    agentKey(owner.agentCode, owner.agentCass, kind, event),
    forwarderKey(owner.forwarderId, kind, event),
  ]);
}

/** The few keys to query for one event: its owner agent and each XTD forwarder, for its kind and name. */
export function eventLookupKeys(event: DomainEvent): string[] {
  const keys: string[] = [];
  const owner = event.audience.ownerAgent;
  if (owner) keys.push(agentKey(owner.code, owner.cass, event.type, event.name));
  for (const forwarderId of new Set(event.audience.xtdForwarders)) {
    keys.push(forwarderKey(forwarderId, event.type, event.name));
  }
  return keys;
}

/** Ownership (DESIGN.md section 9): owner agent code + CASS, or an XTD grant. Nobody else, ever. */
function mayHear(subscriber: SubscriberIdentity, event: DomainEvent): boolean {
  const owner = event.audience.ownerAgent;
  if (owner && owner.code === subscriber.agentCode && owner.cass === subscriber.agentCass) return true;
  return event.audience.xtdForwarders.includes(subscriber.forwarderId);
}

/**
 * Not retroactive (DESIGN.md section 9 "Alerts"): a subscription hears facts recorded after it was
 * created, so replaying an old event does not reach rules and webhooks that did not exist then.
 */
function existedAt(createdAt: string, event: DomainEvent): boolean {
  // Whole seconds: event stamps carry no milliseconds, creation stamps may, and an event recorded in
  // the same second as the subscription was created is not "before" it.
  const created = Math.floor(Date.parse(createdAt) / 1000);
  const recorded = Math.floor(Date.parse(event.recordedAt) / 1000);
  return Number.isNaN(created) || Number.isNaN(recorded) || created <= recorded;
}

function ruleMatches(rule: NotificationRule, event: MatchableEvent): boolean {
  if (!rule.enabled) return false;
  if (!existedAt(rule.createdAt, event)) return false;
  if (rule.alert.kind !== event.type) return false;
  if (
    rule.alert.kind === "ProActive" &&
    event.proActiveMinutes !== undefined &&
    rule.alert.minutes !== event.proActiveMinutes
  ) {
    return false;
  }
  if (!(rule.events as readonly string[]).includes(event.name)) return false;
  if (rule.airlinePrefix !== null && rule.airlinePrefix !== event.awb.prefix) return false;
  if (rule.awbSerial !== null && rule.awbSerial !== event.awb.serial) return false;
  if (rule.origin !== null && rule.origin !== event.origin) return false;
  if (rule.destination !== null && rule.destination !== event.destination) return false;
  return true;
}

function webhookMatches(webhook: Webhook, event: DomainEvent): boolean {
  if (!isWebhookActive(webhook)) return false;
  if (!existedAt(webhook.createdAt, event)) return false;
  if (event.type !== "Event") return false;
  if (!(webhook.events as readonly string[]).includes(event.name)) return false;
  const filter = webhook.awbFilter;
  if (filter.kind === "carrier") return filter.prefix === event.awb.prefix;
  if (filter.kind === "awb") return filter.prefix === event.awb.prefix && filter.serial === event.awb.serial;
  return true;
}

/**
 * Everything but the index lookup, pure and cheap. Re-checks the audience too, so a stale or wrong
 * index entry can never leak one forwarder's shipment to another.
 */
export function matchesFilters(subscription: Subscription, event: MatchableEvent): boolean {
  if (!mayHear(ownerOf(subscription), event)) return false;
  return subscription.kind === "rule"
    ? ruleMatches(subscription.rule, event)
    : webhookMatches(subscription.webhook, event);
}

interface DeliveryTargetBase {
  /** Event id + target: the idempotency key, the SQS dedup id and the `webhook-id` header. */
  deliveryId: string;
  /** "onerecord": a ONE Record subscription to our logistics objects (one-record-server/subscriptions.ts). */
  subscriptionKind: "rule" | "webhook" | "onerecord";
  subscriptionId: number;
  forwarderId: string;
  /** Whose AgentCode/AgentCass/AgentStation the payload carries. */
  recipient: SubscriberIdentity;
}

/**
 * One delivery job. Carries no secrets (Token, Psk, customer header value): the delivery worker reads
 * them from the store, so queue messages and logs never hold them.
 */
export type DeliveryTarget =
  | (DeliveryTargetBase & { targetKind: "email"; emailTo: string; headerItems: HeaderItemCode[] })
  | (DeliveryTargetBase & { targetKind: "url"; endpointId: string })
  | (DeliveryTargetBase & { targetKind: "webhook"; url: string; payloadType: WebhookPayloadType })
  | (DeliveryTargetBase & { targetKind: "onerecord"; notificationType: SubscriptionEventType });

function deliveryIdFor(eventId: string, subscription: Subscription): string {
  return `${eventId}:${subscriptionKey(subscription)}`;
}

function targetFor(subscription: Subscription, event: DomainEvent): DeliveryTarget {
  const recipient = { ...ownerOf(subscription) };
  const deliveryId = deliveryIdFor(event.eventId, subscription);
  if (subscription.kind === "webhook") {
    const webhook = subscription.webhook;
    return {
      deliveryId,
      subscriptionKind: "webhook",
      subscriptionId: webhook.id,
      forwarderId: recipient.forwarderId,
      recipient,
      targetKind: "webhook",
      url: webhook.url,
      payloadType: webhook.type,
    };
  }
  const rule = subscription.rule;
  const base = {
    deliveryId,
    subscriptionKind: "rule" as const,
    subscriptionId: rule.id,
    forwarderId: recipient.forwarderId,
    recipient,
  };
  return rule.channel === "Email"
    ? { ...base, targetKind: "email", emailTo: rule.notifyTo, headerItems: [...rule.headerItems] }
    : { ...base, targetKind: "url", endpointId: rule.notifyTo };
}

/**
 * Delivery targets for one event out of its index candidates: filtered, one per subscription (a
 * forwarder reachable as owner and as XTD finds its rule under two keys but gets one delivery),
 * in a stable order.
 */
export function matchEvent(event: MatchableEvent, candidates: Iterable<Subscription>): DeliveryTarget[] {
  const chosen = new Map<string, Subscription>();
  for (const candidate of candidates) {
    const key = subscriptionKey(candidate);
    if (!chosen.has(key) && matchesFilters(candidate, event)) chosen.set(key, candidate);
  }
  return [...chosen.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, subscription]) => targetFor(subscription, event));
}

/**
 * One e-mail per address and event: of several Email targets naming the same
 * address (any case, any forwarder), only the first in the matcher's stable order is kept, so
 * overlapping or repeated rules never multiply the mail an address gets. Other targets are unaffected.
 */
export function onePerAddress(targets: readonly DeliveryTarget[]): DeliveryTarget[] {
  const seen = new Set<string>();
  return targets.filter((target) => {
    if (target.targetKind !== "email") return true;
    const address = target.emailTo.trim().toLowerCase();
    if (seen.has(address)) return false;
    seen.add(address);
    return true;
  });
}

/**
 * In-memory form of the index (the local runner and tests; the DynamoDB adapter stores the same keys).
 */
export class SubscriptionIndex {
  readonly #byKey = new Map<string, Subscription[]>();

  add(subscription: Subscription): void {
    for (const key of subscriptionIndexKeys(subscription)) {
      const list = this.#byKey.get(key);
      if (list) list.push(subscription);
      else this.#byKey.set(key, [subscription]);
    }
  }

  /** Candidates of one event: only what is stored under its lookup keys (may repeat a subscription). */
  candidatesFor(event: DomainEvent): Subscription[] {
    return eventLookupKeys(event).flatMap((key) => this.#byKey.get(key) ?? []);
  }

  get keyCount(): number {
    return this.#byKey.size;
  }
}
