/** Ports of the timed checks: the one-time schedules of due checks and the ProActive sweep queue. */
import type { DueCheckInput } from "../route-map/due-checks.ts";

/** Where the next page starts: the owner's reader keys are swept one after the other, newest first. */
export interface SweepCursor {
  /** Index into readerKeysOf(rule). */
  reader: number;
  /** Inclusive upper bound of CreationDate (the index's sort order); null = the newest. */
  createdAtOrBefore: string | null;
  /**
   * AWBs (11 digits) already swept whose CreationDate equals the bound: the bound is inclusive, so
   * they come back and are skipped (several route maps may share one creation second).
   */
  sweptAtBound: string[];
}

/** The message the rule routes queue, and each continuation: one page of one rule's sweep. */
export interface ProActiveSweepRequest {
  kind: "proactive-sweep";
  ruleId: number;
  forwarderId: string;
  /** The rule's updatedAt when the sweep was requested: a later change of the rule supersedes it. */
  ruleUpdatedAt: string;
  /** null = the first page. */
  cursor: SweepCursor | null;
}

/** Puts a sweep request on the due-checks queue (the handler of fired checks runs it). */
export interface ProActiveSweepQueue {
  request(sweep: ProActiveSweepRequest): Promise<void>;
}

/** A check to run at `at` (ISO UTC). */
export interface PlannedCheck {
  input: DueCheckInput;
  at: string;
}

/** A check for the due-checks queue now, delivered after `delaySeconds` (0..900, SQS's bound). */
export interface QueuedCheck {
  input: DueCheckInput;
  delaySeconds: number;
}

export interface CheckScheduler {
  /** Upserts one one-time schedule per check (create, or update the one of the same name). */
  schedule(checks: readonly PlannedCheck[]): Promise<void>;
  /** Sends checks straight to the due-checks queue (the handler of fired schedules reads it too). */
  enqueue(checks: readonly QueuedCheck[]): Promise<void>;
}
