/**
 * POST /support/carriers/{prefix}/requests/{id}/replay: a delivered or parked status request is sent
 * again as one new attempt through the carrier's channel as it is now (e.g. once support has set one).
 * Numbered after the last logged attempt, like a forwarder's replay; 409 while it is still attempted.
 */
import { DeliveryInProgressError, StatusRequestNotFoundError } from "../errors.ts";
import type {
  DeliveryJob,
  DeliveryJobQueue,
  DeliveryRecord,
  DeliveryRepository,
} from "../ports/notifications.ts";
import { carrierLogId, STATUS_REQUEST_KIND } from "../status-requests.ts";
import { isStalled } from "./shared/deliveries.ts";

export interface ReplayCarrierStatusRequestDeps {
  deliveries: DeliveryRepository;
  queue: DeliveryJobQueue;
}

export async function replayCarrierStatusRequest(
  deps: ReplayCarrierStatusRequestDeps,
  input: { prefix: string; requestId: string; now: string },
): Promise<{ delivery: DeliveryRecord; job: DeliveryJob }> {
  const delivery = await deps.deliveries.get(input.requestId);
  if (
    !delivery ||
    delivery.subscriptionKind !== STATUS_REQUEST_KIND ||
    delivery.subscriptionId !== carrierLogId(input.prefix)
  )
    throw new StatusRequestNotFoundError(input.requestId);
  if ((delivery.status === "pending" || delivery.status === "retrying") && !isStalled(delivery, input.now))
    throw new DeliveryInProgressError(delivery.deliveryId);
  const lastAttempt = Math.max(delivery.job.attempt, ...delivery.attempts.map((attempt) => attempt.attempt));
  const job: DeliveryJob = { ...delivery.job, attempt: lastAttempt + 1 };
  await deps.queue.enqueue([job]);
  return { delivery, job };
}
