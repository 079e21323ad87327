/**
 * Confirmed means delivered: confirming an address releases the alerts its forwarder's rules raised
 * for it while it waited (parked "not confirmed yet"), each as its next attempt, once; those raised
 * more than 24 h before are not sent, and are listed and logged instead. Nothing else is touched: other
 * parked deliveries, other addresses, other forwarders, delivered ones.
 */
import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../../../functions/core/events.ts";
import { HELD_ALERT_RELEVANCE_SECONDS } from "../../../functions/core/notifications/email-confirmations.ts";
import {
  type NotificationRuleRequest,
  ruleFromRequest,
} from "../../../functions/core/notifications/rules.ts";
import type {
  DeliveryJob,
  DeliveryRecord,
  NotificationJob,
} from "../../../functions/core/ports/notifications.ts";
import { releaseHeldAlerts } from "../../../functions/core/use-cases/shared/held-alerts.ts";
import { memoryDeliveryRepository } from "../../support/memory/delivery-repository.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";
import { emailRuleBody, makeEvent, OWNER, STRANGER } from "./helpers.ts";

const NOW = "2026-03-15T12:00:00Z";
const hoursBefore = (hours: number) => new Date(Date.parse(NOW) - hours * 3600_000).toISOString();
const HELD =
  "skipped: e-mail address ops@held.example is not confirmed yet (it was mailed a confirmation link)";

function rule(id: number, notifyTo: string, owner = OWNER) {
  const request = {
    ...emailRuleBody({ NotifyTo: notifyTo }),
    ShareLinkHours: null,
  } as NotificationRuleRequest;
  return ruleFromRequest(request, { id, owner, now: hoursBefore(100) });
}

function delivery(
  id: string,
  ruleId: number,
  raisedHoursAgo: number,
  last: { outcome: "parked" | "delivered"; detail: string },
  forwarderId = OWNER.forwarderId,
): DeliveryRecord {
  const event: DomainEvent = makeEvent({ eventId: `evt-${id}`, recordedAt: hoursBefore(raisedHoursAgo) });
  const job: NotificationJob = {
    deliveryId: id,
    event,
    target: {
      deliveryId: id,
      subscriptionKind: "rule",
      subscriptionId: ruleId,
      forwarderId,
      recipient: OWNER,
      targetKind: "email",
      emailTo: "ops@held.example",
      headerItems: ["AWB"],
    },
    attempt: 1,
  };
  const at = hoursBefore(raisedHoursAgo);
  return {
    deliveryId: id,
    eventId: event.eventId,
    subscriptionKind: "rule",
    subscriptionId: ruleId,
    forwarderId,
    status: last.outcome,
    attempts: [{ attempt: 1, at, status: null, latencyMs: 0, ...last }],
    job,
    createdAt: at,
    updatedAt: at,
  };
}

async function setup() {
  const subscriptions = memorySubscriptionRepository();
  const deliveries = memoryDeliveryRepository();
  const queued: DeliveryJob[] = [];
  const queue = { enqueue: async (jobs: readonly DeliveryJob[]) => void queued.push(...jobs) };
  await subscriptions.putRule(rule(1, "Ops@Held.example"));
  await subscriptions.putRule(rule(2, "ops@held.example"));
  await subscriptions.putRule(rule(3, "someone@else.example"));
  await subscriptions.putRule(rule(4, "ops@held.example", STRANGER));
  const records = [
    delivery("fresh", 1, 2, { outcome: "parked", detail: HELD }),
    delivery("just-in", 2, 23.9, { outcome: "parked", detail: HELD }),
    delivery("stale", 2, 30, { outcome: "parked", detail: HELD }),
    delivery("refused", 1, 1, { outcome: "parked", detail: "HTTP 400 (parked: rejected)" }),
    delivery("sent", 1, 1, { outcome: "delivered", detail: "sent" }),
    delivery("other-address", 3, 1, { outcome: "parked", detail: HELD }),
    delivery("other-forwarder", 4, 1, { outcome: "parked", detail: HELD }, STRANGER.forwarderId),
  ];
  for (const record of records) await deliveries.create(record);
  return { deps: { subscriptions, deliveries, queue }, deliveries, queued };
}

describe("alerts held for an unconfirmed address", () => {
  it("the window is 24 hours", () => {
    expect(HELD_ALERT_RELEVANCE_SECONDS).toBe(24 * 3600);
  });

  it("go out as their next attempt when the address is confirmed; older ones are listed and logged", async () => {
    const { deps, deliveries, queued } = await setup();
    const outcome = await releaseHeldAlerts(deps, {
      forwarderId: OWNER.forwarderId,
      address: "ops@held.example",
      now: NOW,
    });
    expect(queued.map((job) => [job.deliveryId, job.attempt]).sort()).toEqual([
      ["fresh", 2],
      ["just-in", 2],
    ]);
    expect(outcome).toEqual({
      released: 2,
      dropped: [{ deliveryId: "stale", event: "DEP", awb: "020-12345675", raisedAt: hoursBefore(30) }],
    });
    const stale = await deliveries.get("stale");
    expect(stale?.status).toBe("parked");
    expect(stale?.attempts.at(-1)).toMatchObject({
      attempt: 2,
      at: NOW,
      outcome: "parked",
      detail: expect.stringMatching(/^not sent: held more than 24 h until ops@held\.example was confirmed/),
    });
    for (const untouched of ["refused", "sent", "other-address", "other-forwarder"])
      expect((await deliveries.get(untouched))?.attempts, untouched).toHaveLength(1);
  });

  it("nothing held, nothing queued", async () => {
    const { deps, queued } = await setup();
    const outcome = await releaseHeldAlerts(deps, {
      forwarderId: OWNER.forwarderId,
      address: "nobody@held.example",
      now: NOW,
    });
    expect(outcome).toEqual({ released: 0, dropped: [] });
    expect(queued).toEqual([]);
  });
});
