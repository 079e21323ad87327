/**
 * Match one outbox event (DESIGN.md section 2 "match events"): its lookup keys, the few subscriptions
 * stored under them, the pure matcher, then one delivery record and one SQS job per target.
 *
 * At-least-once without loss: the record is created first (idempotent on the delivery id), the job is
 * enqueued afterwards. A retried event (stream redelivery after a crash between the two steps) finds
 * its records already there: a record that never saw an attempt is enqueued again (its first attempt
 * may never have been queued; a duplicate job is absorbed by the deliverer's idempotency), a record
 * with attempts is left alone.
 */
import {
  type DeliveryTarget,
  eventLookupKeys,
  type MatchableEvent,
  matchEvent as matchTargets,
  onePerAddress,
} from "../notifications/index.ts";
import { eventIndexKeys, subscriptionHears } from "../one-record-server/subscriptions.ts";
import type {
  DeliveryJobQueue,
  DeliveryRepository,
  NotificationJob,
  SubscriptionRepository,
} from "../ports/notifications.ts";
import type { OneRecordSubscriptionStore } from "../ports/one-record.ts";
import { firstJob, newDeliveryRecord } from "./shared/deliveries.ts";

export interface MatchEventDeps {
  subscriptions: SubscriptionRepository;
  deliveries: DeliveryRepository;
  queue: DeliveryJobQueue;
  /** ONE Record subscriptions to our logistics objects; absent: none are matched. */
  oneRecordSubscriptions?: OneRecordSubscriptionStore;
}

/** The ONE Record subscribers of the event: one target per subscription that hears it. */
async function oneRecordTargets(
  deps: MatchEventDeps,
  event: MatchableEvent,
  now: string,
): Promise<DeliveryTarget[]> {
  if (!deps.oneRecordSubscriptions) return [];
  const candidates = await deps.oneRecordSubscriptions.findCandidates(eventIndexKeys(event));
  return candidates
    .sort((a, b) => a.id - b.id)
    .flatMap((sub) => {
      const notificationType = subscriptionHears(sub, event, now);
      if (notificationType === null) return [];
      return [
        {
          deliveryId: `${event.eventId}:onerecord-${sub.id}`,
          subscriptionKind: "onerecord" as const,
          subscriptionId: sub.id,
          forwarderId: sub.owner.forwarderId,
          recipient: { ...sub.owner },
          targetKind: "onerecord" as const,
          notificationType,
        },
      ];
    });
}

export interface MatchEventResult {
  /** Every target the event matched. */
  targets: DeliveryTarget[];
  /** Jobs queued by this call (new ones, plus re-queued ones that never got an attempt). */
  enqueued: NotificationJob[];
  /** Delivery ids already in progress or done: nothing queued for them. */
  alreadyHandled: string[];
}

/** `now` (ISO UTC) stamps the delivery records. */
export async function matchEvent(
  deps: MatchEventDeps,
  input: { event: MatchableEvent; now: string },
): Promise<MatchEventResult> {
  const { event, now } = input;
  const keys = eventLookupKeys(event);
  // An event nobody may hear (no owner agent yet, no XTD grant) costs no query at all.
  if (keys.length === 0) return { targets: [], enqueued: [], alreadyHandled: [] };
  // One e-mail per address and event, however many rules name the address.
  const targets = [
    ...onePerAddress(matchTargets(event, await deps.subscriptions.findCandidates(keys))),
    ...(await oneRecordTargets(deps, event, now)),
  ];

  const enqueued: NotificationJob[] = [];
  const alreadyHandled: string[] = [];
  for (const target of targets) {
    const job = firstJob(event, target);
    if (await deps.deliveries.create(newDeliveryRecord(job, now))) {
      enqueued.push(job);
      continue;
    }
    const existing = await deps.deliveries.get(job.deliveryId);
    if (existing && existing.status === "pending" && existing.attempts.length === 0) enqueued.push(job);
    else alreadyHandled.push(job.deliveryId);
  }
  if (enqueued.length > 0) await deps.queue.enqueue(enqueued);
  return { targets, enqueued, alreadyHandled };
}
