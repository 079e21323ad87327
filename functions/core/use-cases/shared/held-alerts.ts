/**
 * Confirmed means delivered: the alerts a forwarder's rules raised for an address while it waited
 * for its confirmation were parked ("not confirmed yet"); confirming the address releases them. Each
 * one still within its relevance window (HELD_ALERT_RELEVANCE_SECONDS, 24 h from when it was raised)
 * goes back on the delivery queue as its next attempt, so the deliverer sends it within the minute,
 * exactly once (the attempt number comes from the log, and the deliverer de-duplicates on delivery id
 * + attempt). Older ones are not sent: their log says so and the confirmation page lists them.
 */
import type { DomainEvent } from "../../events.ts";
import {
  HELD_ALERT_RELEVANCE_SECONDS,
  isHeldForConfirmation,
  normaliseAddress,
} from "../../notifications/email-confirmations.ts";
import type {
  DeliveryJob,
  DeliveryJobQueue,
  DeliveryRecord,
  DeliveryRepository,
  SubscriptionRepository,
} from "../../ports/notifications.ts";

export interface HeldAlertDeps {
  subscriptions: Pick<SubscriptionRepository, "listRules">;
  deliveries: Pick<DeliveryRepository, "listForSubscription" | "recordAttempt">;
  queue: DeliveryJobQueue;
}

/** A held alert that was too old to send: what it was about, for the page and the report. */
export interface DroppedAlert {
  deliveryId: string;
  event: string;
  /** "020-12345675". */
  awb: string;
  /** When it was raised (the delivery's creation). */
  raisedAt: string;
}

export interface ReleasedAlerts {
  /** Queued to be sent now. */
  released: number;
  dropped: DroppedAlert[];
}

const RULE_PAGE = 100;
/** Rules of one forwarder read at most (MAX_RULES_PER_FORWARDER's default is 500). */
const MAX_RULE_PAGES = 20;
/**
 * Deliveries read per rule: a log keeps 30 days, newest first; beyond this many a rule's older held
 * alerts are long past their window anyway and stay parked (replayable by hand).
 */
const MAX_DELIVERY_PAGES = 10;

const awbText = (event: DomainEvent) => `${event.awb.prefix}-${event.awb.serial}`;

/** A rule delivery parked only because its address was not confirmed yet (its last word says so). */
function heldForConfirmation(delivery: DeliveryRecord): delivery is DeliveryRecord & {
  job: Extract<DeliveryJob, { event: DomainEvent }>;
} {
  const last = delivery.attempts.at(-1);
  return (
    delivery.status === "parked" &&
    delivery.job.kind !== "status-request" &&
    last?.outcome === "parked" &&
    isHeldForConfirmation(last.detail)
  );
}

export async function releaseHeldAlerts(
  deps: HeldAlertDeps,
  input: { forwarderId: string; address: string; now: string },
): Promise<ReleasedAlerts> {
  const address = normaliseAddress(input.address);
  const ruleIds: number[] = [];
  for (let page = 1; page <= MAX_RULE_PAGES; page++) {
    const listed = await deps.subscriptions.listRules(input.forwarderId, { page, pageSize: RULE_PAGE });
    for (const rule of listed.items)
      if (rule.channel === "Email" && normaliseAddress(rule.notifyTo) === address) ruleIds.push(rule.id);
    if (page * RULE_PAGE >= listed.total) break;
  }
  const oldest = Date.parse(input.now) - HELD_ALERT_RELEVANCE_SECONDS * 1000;
  const release: DeliveryJob[] = [];
  const dropped: DroppedAlert[] = [];
  for (const ruleId of ruleIds) {
    for (let page = 1; page <= MAX_DELIVERY_PAGES; page++) {
      const listed = await deps.deliveries.listForSubscription("rule", ruleId, { page, pageSize: RULE_PAGE });
      for (const delivery of listed.items) {
        if (!heldForConfirmation(delivery)) continue;
        const next = Math.max(delivery.job.attempt, ...delivery.attempts.map((a) => a.attempt)) + 1;
        if (Date.parse(delivery.createdAt) >= oldest) {
          release.push({ ...delivery.job, attempt: next });
          continue;
        }
        const event = delivery.job.event;
        dropped.push({
          deliveryId: delivery.deliveryId,
          event: event.name,
          awb: awbText(event),
          raisedAt: delivery.createdAt,
        });
        await deps.deliveries.recordAttempt(
          delivery.deliveryId,
          {
            attempt: next,
            at: input.now,
            status: null,
            latencyMs: 0,
            outcome: "parked",
            detail: `not sent: held more than ${HELD_ALERT_RELEVANCE_SECONDS / 3600} h until ${address} was confirmed, past its relevance; replay to send it anyway`,
          },
          "parked",
        );
      }
      if (page * RULE_PAGE >= listed.total) break;
    }
  }
  if (release.length > 0) await deps.queue.enqueue(release);
  return { released: release.length, dropped };
}
