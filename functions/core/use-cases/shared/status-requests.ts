/**
 * A sendsme asks the carrier for a status: one status request per carrier, AWB and
 * collapse window (a conditional claim, so concurrent sendsme cannot both win), delivered by the
 * delivery pipeline (a delivery record listed under the carrier, then a job on the delivery queue), and
 * every XTD trigger counted in the requesting forwarder's usage ledger, collapsed or not: the
 * forwarder asked, so it is what the "additional costs" of XTD requests are about. The ledger entry is
 * the last step: a request stopped by its deadline before it (DeadlineReachedError) is not counted,
 * and one that lost a race for the forwarder's count of the month tries again.
 */
import type { AwbId } from "../../carrier-messages/types.ts";
import { WriteConflictError } from "../../errors.ts";
import type { StatusRequestWindow, UsageEntry, UsageLedger } from "../../ports/carriers.ts";
import type { DeliveryJobQueue, DeliveryRepository, StatusRequestJob } from "../../ports/notifications.ts";
import type { ConflictBackoff } from "../../ports/route-maps.ts";
import {
  collapseWindowEnd,
  type StatusRequest,
  statusRequestId,
  usageMonthOf,
} from "../../status-requests.ts";
import { type Deadline, NO_DEADLINE } from "./deadline.ts";
import { newDeliveryRecord } from "./deliveries.ts";
import { MAX_WRITE_ATTEMPTS } from "./route-map-writes.ts";

export interface StatusRequestDeps {
  window: StatusRequestWindow;
  deliveries: DeliveryRepository;
  queue: DeliveryJobQueue;
  usage: UsageLedger;
  /** Repeated sendsme for one AWB within this many seconds ask once (STATUS_REQUEST_WINDOW_SECONDS). */
  windowSeconds: number;
}

export interface StatusRequestInput {
  awb: AwbId;
  origin: string | null;
  destination: string | null;
  forwarderId: string;
  isXtd: boolean;
  now: string;
}

export type StatusRequestOutcome =
  | { kind: "requested"; request: StatusRequest }
  | { kind: "collapsed"; requestId: string };

export async function requestCarrierStatus(
  deps: StatusRequestDeps,
  input: StatusRequestInput,
  options: { deadline?: Deadline; backoff?: ConflictBackoff } = {},
): Promise<StatusRequestOutcome> {
  const { awb, now } = input;
  const deadline = options.deadline ?? NO_DEADLINE;
  const requestId = statusRequestId(awb, now);
  const claim = await deadline.step(() =>
    deps.window.claim({
      carrierPrefix: awb.prefix,
      awb,
      requestId,
      now,
      until: collapseWindowEnd(now, deps.windowSeconds),
    }),
  );
  if (!claim.claimed) await deadline.step(() => requeueIfStuck(deps, claim.requestId, now));
  const outcome: StatusRequestOutcome = claim.claimed
    ? { kind: "requested", request: await deadline.step(() => queueRequest(deps, { ...input, requestId })) }
    : { kind: "collapsed", requestId: claim.requestId };
  if (input.isXtd) {
    await recordUsage(
      deps,
      {
        forwarderId: input.forwarderId,
        month: usageMonthOf(now),
        at: now,
        awb,
        requestId: outcome.kind === "requested" ? outcome.request.requestId : outcome.requestId,
        collapsed: outcome.kind === "collapsed",
      },
      deadline,
      options.backoff,
    );
  }
  return outcome;
}

/** The ledger entry, again after a lost race for the month's count (the lost one wrote nothing). */
async function recordUsage(
  deps: StatusRequestDeps,
  entry: UsageEntry,
  deadline: Deadline,
  backoff: ConflictBackoff | undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deadline.step(() => deps.usage.record(entry));
      return;
    } catch (error) {
      if (!(error instanceof WriteConflictError) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      await backoff?.(attempt);
    }
  }
}

/**
 * A request that claimed its window but whose job never ran (the sendsme failed between the record and
 * the queue, and its retry collapsed into it) is queued again by the next sendsme of the window, once
 * it has waited STUCK_AFTER_SECONDS; a second copy of a job is absorbed by the deliverer's idempotency.
 */
export const STUCK_AFTER_SECONDS = 60;

async function requeueIfStuck(deps: StatusRequestDeps, requestId: string, now: string): Promise<void> {
  const record = await deps.deliveries.get(requestId);
  if (record?.status !== "pending" || record.attempts.length > 0) return;
  if (Date.parse(now) - Date.parse(record.createdAt) < STUCK_AFTER_SECONDS * 1000) return;
  await deps.queue.enqueue([record.job]);
}

/** The record first (idempotent on the id), then the job: the matcher's order, for the same reasons. */
async function queueRequest(
  deps: StatusRequestDeps,
  input: StatusRequestInput & { requestId: string },
): Promise<StatusRequest> {
  const request: StatusRequest = {
    requestId: input.requestId,
    carrierPrefix: input.awb.prefix,
    awb: input.awb,
    origin: input.origin,
    destination: input.destination,
    requestedAt: input.now,
    forwarderId: input.forwarderId,
    isXtd: input.isXtd,
  };
  const job: StatusRequestJob = {
    kind: "status-request",
    deliveryId: request.requestId,
    request,
    attempt: 1,
  };
  await deps.deliveries.create(newDeliveryRecord(job, input.now));
  await deps.queue.enqueue([job]);
  return request;
}
