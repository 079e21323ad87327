/**
 * Delivery records and jobs, shared by matching, delivery and the forwarder's delivery routes.
 *
 * A forwarder's view of the deliveries of one of its rules or webhooks: the attempt log, and replay of
 * a delivered or parked delivery. Ownership is checked on the subscription first, so another
 * forwarder's deliveries answer exactly like unknown ones.
 */

import { DeliveryInProgressError, SubscriptionNotFoundError } from "../../errors.ts";
import type { DomainEvent } from "../../events.ts";
import type { DeliveryTarget } from "../../notifications/index.ts";
import type {
  DeliveryJob,
  DeliveryJobQueue,
  DeliveryRecord,
  DeliveryRepository,
  NotificationJob,
  Page,
  PageRequest,
  SubscriptionRepository,
} from "../../ports/notifications.ts";
import { carrierLogId, STATUS_REQUEST_KIND } from "../../status-requests.ts";

export interface SubscriptionRef {
  forwarderId: string;
  kind: "rule" | "webhook";
  id: number;
}

export interface DeliveryListDeps {
  subscriptions: SubscriptionRepository;
  deliveries: DeliveryRepository;
}

export interface ReplayDeps extends DeliveryListDeps {
  queue: DeliveryJobQueue;
}

/**
 * An "in progress" delivery whose record has not changed for this long has lost its job (e.g. dead-
 * lettered because even parking it failed): replay is allowed again, so it cannot stay stuck behind a
 * 409 for ever. Comfortably longer than any wait a live delivery has: the longest scheduled retry or
 * Retry-After (10 h, plus jitter) and the SQS receives of one attempt.
 */
export const STALLED_AFTER_SECONDS = 24 * 3600;

export function isStalled(delivery: DeliveryRecord, now: string): boolean {
  const quietMs = Date.parse(now) - Date.parse(delivery.updatedAt);
  return quietMs > STALLED_AFTER_SECONDS * 1000;
}

async function ensureOwned(subscriptions: SubscriptionRepository, ref: SubscriptionRef): Promise<void> {
  const found =
    ref.kind === "rule"
      ? await subscriptions.getRule(ref.forwarderId, ref.id)
      : await subscriptions.getWebhook(ref.forwarderId, ref.id);
  if (!found) throw new SubscriptionNotFoundError(ref.kind, String(ref.id));
}

export async function listSubscriptionDeliveries(
  deps: DeliveryListDeps,
  input: { subscription: SubscriptionRef; page: PageRequest },
): Promise<Page<DeliveryRecord>> {
  await ensureOwned(deps.subscriptions, input.subscription);
  return deps.deliveries.listForSubscription(input.subscription.kind, input.subscription.id, input.page);
}

/**
 * Puts the stored job back on the delivery queue as a NEW attempt, numbered after the last logged one:
 * the deliverer's idempotency (delivery id + attempt) would swallow a reused number, and a repeated
 * replay request before the attempt runs yields the same number, so it is sent once. The deliverer
 * re-reads the subscription, so a deleted or disabled one is logged as skipped, not sent. A delivery
 * still in progress answers 409, unless it has stalled (STALLED_AFTER_SECONDS).
 */
export async function replayDelivery(
  deps: ReplayDeps,
  input: { subscription: SubscriptionRef; deliveryId: string; now: string },
): Promise<{ delivery: DeliveryRecord; job: DeliveryJob }> {
  const { subscription } = input;
  await ensureOwned(deps.subscriptions, subscription);
  const delivery = await deps.deliveries.get(input.deliveryId);
  if (
    !delivery ||
    delivery.forwarderId !== subscription.forwarderId ||
    delivery.subscriptionKind !== subscription.kind ||
    delivery.subscriptionId !== subscription.id
  ) {
    throw new SubscriptionNotFoundError("delivery", input.deliveryId);
  }
  return requeueDelivery(deps, delivery, input.now);
}

/** Replay of a delivery whose ownership the caller checked: 409 while in progress, else one new attempt. */
export async function requeueDelivery(
  deps: Pick<ReplayDeps, "queue">,
  delivery: DeliveryRecord,
  now: string,
): Promise<{ delivery: DeliveryRecord; job: DeliveryJob }> {
  if ((delivery.status === "pending" || delivery.status === "retrying") && !isStalled(delivery, now)) {
    throw new DeliveryInProgressError(delivery.deliveryId);
  }
  const lastAttempt = Math.max(delivery.job.attempt, ...delivery.attempts.map((attempt) => attempt.attempt));
  const job: DeliveryJob = { ...delivery.job, attempt: lastAttempt + 1 };
  await deps.queue.enqueue([job]);
  return { delivery, job };
}

/** The first job of a matched target. */
export function firstJob(event: DomainEvent, target: DeliveryTarget): NotificationJob {
  return { deliveryId: target.deliveryId, event, target, attempt: 1 };
}

/** The record a matched target (or a status request) starts with: pending, no attempt yet. */
export function newDeliveryRecord(job: DeliveryJob, now: string): DeliveryRecord {
  const owner =
    job.kind === "status-request"
      ? {
          eventId: job.request.requestId,
          subscriptionKind: STATUS_REQUEST_KIND,
          subscriptionId: carrierLogId(job.request.carrierPrefix),
          forwarderId: job.request.forwarderId,
        }
      : {
          eventId: job.event.eventId,
          subscriptionKind: job.target.subscriptionKind,
          subscriptionId: job.target.subscriptionId,
          forwarderId: job.target.forwarderId,
        };
  return {
    deliveryId: job.deliveryId,
    ...owner,
    status: "pending",
    attempts: [],
    job,
    createdAt: now,
    updatedAt: now,
  };
}
