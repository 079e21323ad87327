/** Queues a delivered or parked delivery of one of the caller's webhooks again as one new attempt. */
import type { DeliveryJob, DeliveryRecord } from "../ports/notifications.ts";
import { type ReplayDeps, replayDelivery } from "./shared/deliveries.ts";

export function replayWebhookDelivery(
  deps: ReplayDeps,
  input: { forwarderId: string; id: number; deliveryId: string; now: string },
): Promise<{ delivery: DeliveryRecord; job: DeliveryJob }> {
  const { forwarderId, id, deliveryId, now } = input;
  return replayDelivery(deps, { subscription: { forwarderId, kind: "webhook", id }, deliveryId, now });
}
