/**
 * A delivery channel: how one kind of delivery reaches its receiver. The delivery use case
 * (use-cases/deliver-job.ts) runs the attempt: the attempt log, retries and lanes, parking. It asks
 * the channels (registry.ts) for the rest: where the job goes as things stand now, and sending it there.
 * A channel reads its target's settings and secrets through the ports at delivery time (a job carries
 * none) and reports what happened in the terms of the retry policy and the attempt log.
 */
import type { DeliveryJob } from "../../ports/notifications.ts";
import type { AttemptOutcome } from "../delivery-policy.ts";

/** What the caller tells one attempt besides its job. */
export interface AttemptSettings {
  /** ISO UTC time of this attempt (the service clock: what the log and the retry plan use). */
  now: string;
  /**
   * Unix seconds of the real wall clock at sending, for `webhook-timestamp`: receivers check it
   * against their own clock (Standard Webhooks: 5 minutes), so it is about the transmission and never
   * the service clock, which the local runner can move forward.
   */
  sentAtSeconds: number;
  /** Per-attempt HTTP timeout (default: the sender's 10 s). */
  timeoutMs?: number;
  serviceName?: string;
  /** Origin of the web app (APP_BASE_URL) for an e-mail's links; absent: e-mails without links. */
  appBaseUrl?: string;
}

/** What a channel sees of one attempt. */
export interface AttemptContext extends AttemptSettings {
  /**
   * Runs `read` once in this attempt under `key`, however many channels ask for it: both rule channels
   * look at the job's rule to see whether it is theirs, and it is read from the store once.
   */
  readOnce<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/** Where the job goes now, or why it goes nowhere. */
export type Resolution<Target> =
  | { ok: true; target: Target }
  /**
   * Nothing is sent; the delivery is parked with the reason, replayable once it is fixed.
   * `suppressed`: the address bounced or complained before; waiting will not help, and the log says so.
   */
  | { ok: false; reason: string; suppressed?: true };

/** What one send produced, in the terms of the retry policy and the attempt log. */
export interface SendResult {
  /** For the policy; null = decided without it (refused by the SSRF guard, e-mail refused by SES). */
  outcome: AttemptOutcome | null;
  /** For the log: HTTP status (SES: 200 when accepted), null without an answer. */
  status: number | null;
  retryAfter: string | null;
  latencyMs: number;
  detail: string;
  /** SES MessageId of the e-mail sent (bounces and complaints refer to it). */
  emailMessageId?: string;
  /**
   * The job a retry of this delivery runs (its attempt number aside), when it must carry what this
   * attempt made: an e-mail's share link, so a retry sends the same one. Absent: the same job.
   */
  retryJob?: DeliveryJob;
}

/**
 * One delivery channel. `Target` is what `resolve` found and `send` uses (the orchestrator only hands
 * it back to the channel that made it); `Deps` the ports the channel needs.
 */
export interface DeliveryChannel<Target, Deps> {
  /** The channel's name: `email`, `customer-endpoint`, `webhook`, `status-request`. */
  readonly kind: string;
  /**
   * The job's target as it stands now, read from the store; null when the job is not this channel's,
   * so that the registry asks the next one.
   */
  resolve(job: DeliveryJob, deps: Deps, attempt: AttemptContext): Promise<Resolution<Target> | null>;
  /** Sends to the target once and says what came back. */
  send(target: Target, deps: Deps, attempt: AttemptContext): Promise<SendResult>;
  /**
   * A 410 Gone from the receiver. Absent: the delivery is parked and nothing is switched off (what
   * support registered stays as it is). Present: switches the target off (before the attempt is
   * logged: a redelivered job would not get here again) and returns the note the attempt log carries.
   */
  switchOff?(target: Target, deps: Deps, now: string): Promise<string>;
}
