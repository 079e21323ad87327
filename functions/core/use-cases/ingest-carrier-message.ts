/**
 * POST /carrier/messages: parse the body (Cargo-IMP, XFSU or JSON), check every AWB is the carrier's
 * and every message can be placed (stations, dates) BEFORE writing anything, then apply the messages in
 * order. Each change is one atomic write (record + snapshot + outbox events + reader items) under
 * optimistic concurrency: on a conflict the report is re-applied to the reloaded state (applyReport is
 * deterministic), so concurrent messages for one AWB never lose an update.
 *
 * The messages of one body are not one transaction (each AWB is its own aggregate): when a write
 * still fails after some messages were stored, IngestInterruptedError says which ones, so the carrier
 * resends only the rest.
 *
 * Deadline: with `timeLeftMs` (the Lambda's remaining time) no attempt starts unless twice the slowest
 * attempt of this request plus DEADLINE_RESERVE_MS is left, so the answer (what was stored, 409 with
 * Retry-After for the rest) comes before the function is cut off: a message is either stored and
 * answered "changed", or not stored at all and answered 409.
 *
 * A flight manifest or booked list (FFM, FBL, XFFM) lists every AWB its flight carries, other airlines' among them
 * (interline): its lines for AWBs of another prefix are skipped, not refused, as that airline reports
 * its own AWBs; any other report of another carrier's AWB refuses the body (403).
 *
 * A body posted to the API and refused (400 naming the line, 422, 403) is recorded in the carrier's
 * inbound log with its reason, next to the refused e-mails, so support sees every refused message
 * (ingestPostedCarrierMessage).
 */

import { awbKey } from "../awb.ts";
import { type CarrierReport, parseCarrierMessage } from "../carrier-messages/index.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import { planningConfigOf } from "../carriers.ts";
import {
  DeadlineReachedError,
  ForeignAwbError,
  IngestInterruptedError,
  MessageParseError,
  WriteConflictError,
} from "../errors.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";
import type { InboundMailLog } from "../ports/inbound-mail.ts";
import type { RawMessageStore } from "../ports/raw-messages.ts";
import type {
  ConflictBackoff,
  RouteMapBase,
  RouteMapRecord,
  RouteMapRepository,
} from "../ports/route-maps.ts";
import { type ApplyContext, applyReport } from "../route-map/apply-report.ts";
import { type Receipt, type ReceiptChannel, receiptOf, storedProvenance } from "../route-map/provenance.ts";
import { assertPlaceable } from "../route-map/report-placement.ts";
import type { AppliedMessage } from "../types.ts";
import { MAX_WRITE_ATTEMPTS, routeMapChangeFrom } from "./shared/route-map-writes.ts";

export interface IngestCarrierMessageDeps {
  routeMaps: RouteMapRepository;
  carriers: CarrierDirectory;
  backoff: ConflictBackoff;
  /** Where the raw body of a receipt that changes a route map is kept for support; absent: not kept (tests). */
  rawMessages?: RawMessageStore;
  /**
   * Told of every change once it is stored (predictions keep and learn from it). Its failure does not
   * undo or refuse the stored change: it is handed to `failed` (logged and counted by the adapter).
   */
  changeObserver?: RouteMapChangeObserver;
}

export interface RouteMapChangeObserver {
  observe(change: { previous: RouteMapRecord | null; next: RouteMapRecord; now: string }): Promise<void>;
  failed(error: unknown): void;
}

export interface IngestCarrierMessageInput {
  /** From the carrier's token: it may only report AWBs with this prefix. */
  carrierPrefix: string;
  contentType: string;
  body: string;
  /** Receipt time, ISO UTC. */
  now: string;
  /** How the body arrived, kept as every actual's provenance; absent = posted to the API. */
  channel?: ReceiptChannel;
  /** Milliseconds this request may still run (the Lambda's remaining time); absent = no deadline. */
  timeLeftMs?: () => number;
}

/** A body as received: its receipt (channel, id, time), kept raw for support once it changes something. */
export interface ReceivedBody {
  receipt: Receipt;
  contentType: string;
  body: string;
  /** A ONE Record document's IRI. */
  fetchedFrom?: string;
}

/** Time kept back for the answer, on top of room for the next attempt (twice the slowest one yet). */
export const DEADLINE_RESERVE_MS = 1_500;

/** The request's time budget, shared by all its messages; without `timeLeftMs`, no deadline. */
function budgetOf(timeLeftMs: (() => number) | undefined) {
  let slowestAttempt = 0;
  return {
    /** Throws DeadlineReachedError when the next attempt might not finish before the answer is due. */
    ensureTimeFor(awb: AwbId): void {
      if (timeLeftMs !== undefined && timeLeftMs() < DEADLINE_RESERVE_MS + 2 * slowestAttempt) {
        throw new DeadlineReachedError(awb);
      }
    },
    /** Runs one attempt (read + write), remembering how long the slowest took. */
    async attempt<T>(work: () => Promise<T>): Promise<T> {
      if (timeLeftMs === undefined) return work();
      const before = timeLeftMs();
      try {
        return await work();
      } finally {
        slowestAttempt = Math.max(slowestAttempt, before - timeLeftMs());
      }
    },
  };
}
type Budget = ReturnType<typeof budgetOf>;

// Defined in the core's leaf vocabulary (errors carry it); callers of the use case import it from here.
export type { AppliedMessage } from "../types.ts";

export async function ingestCarrierMessage(
  deps: IngestCarrierMessageDeps,
  input: IngestCarrierMessageInput,
): Promise<AppliedMessage[]> {
  // Throws MessageParseError (400 naming the line: also more than 100 messages in the body, or a
  // time far from receipt) or UnsupportedContentTypeError (415).
  const reports = parseCarrierMessage(input.contentType, input.body, input.now);
  const receipt = receiptOf(input.channel ?? "api", input.carrierPrefix, input.now, input.body);
  return ingestCarrierReports(deps, {
    ...input,
    reports,
    received: { receipt, contentType: input.contentType, body: input.body },
  });
}

/** The API's refusals recorded for support: the sender of such an entry in the inbound log. */
export const API_SENDER = "api";

/**
 * POST /carrier/messages: ingestCarrierMessage, and a refusal of the body (MessageParseError and its
 * kinds, another carrier's AWB) recorded in the carrier's inbound log before it is answered:
 * sender "api", subject the content type, the request id as its message id, the reason and line.
 * Without `refusals` (unit tests of other concerns) nothing is recorded.
 */
export async function ingestPostedCarrierMessage(
  deps: IngestCarrierMessageDeps & { refusals?: InboundMailLog },
  input: IngestCarrierMessageInput & { requestId: string },
): Promise<AppliedMessage[]> {
  try {
    return await ingestCarrierMessage(deps, input);
  } catch (error) {
    if (deps.refusals && (error instanceof MessageParseError || error instanceof ForeignAwbError)) {
      // The carrier's answer is the refusal, whatever becomes of this record of it.
      await deps.refusals
        .record({
          carrierPrefix: input.carrierPrefix,
          messageId: input.requestId,
          sender: API_SENDER,
          subject: input.contentType,
          receivedAt: input.now,
          outcome: "refused",
          reason: error.message,
          line: error instanceof MessageParseError ? error.line : null,
          applied: [],
          replied: false,
        })
        .catch(() => "unrecorded");
    }
    throw error;
  }
}

/** Message types that list other airlines' AWBs too: their lines for another prefix are skipped. */
const MANIFESTS: ReadonlySet<string> = new Set(["FFM", "FBL", "XFFM"]);

/**
 * Applies reports already parsed (the ONE Record notification receiver reads its fetched events
 * itself): the same checks, order and guarantees as a posted body.
 */
export async function ingestCarrierReports(
  deps: IngestCarrierMessageDeps,
  input: Pick<IngestCarrierMessageInput, "carrierPrefix" | "now" | "timeLeftMs"> & {
    reports: readonly CarrierReport[];
    /** The body the reports were read from: their provenance, and the raw message support reads. */
    received?: ReceivedBody;
  },
): Promise<AppliedMessage[]> {
  const { received } = input;
  const reports = input.reports.filter(
    (r) => r.awb.prefix === input.carrierPrefix || !MANIFESTS.has(r.message.type),
  );
  const foreign = reports.filter((r) => r.awb.prefix !== input.carrierPrefix).map((r) => r.awb);
  if (foreign.length > 0) throw new ForeignAwbError(input.carrierPrefix, uniqueAwbs(foreign));

  const ctx: ApplyContext = {
    receivedAt: input.now,
    carrier: planningConfigOf(await deps.carriers.get(input.carrierPrefix)),
    ...(received ? { receipt: received.receipt } : {}),
  };
  // Stations and local times do not depend on the stored state: every message we could not place
  // is a 400 naming its line (MessageParseError) before anything is written.
  for (const report of reports) assertPlaceable(report, input.now);

  // What this request already read or wrote per AWB, so consecutive messages for one AWB do not
  // read it again (a conflict reloads).
  const known = new Map<string, RouteMapBase>();
  const budget = budgetOf(input.timeLeftMs);
  const keepRaw = rawKeeper(deps.rawMessages, input.carrierPrefix, received);
  const applied: AppliedMessage[] = [];
  for (const report of reports) {
    try {
      applied.push(await applyOne(deps, report, ctx, input.now, known, budget, keepRaw));
    } catch (error) {
      // Resend from the first message not applied.
      throw new IngestInterruptedError([...applied], applied.length + 1, reports.length, error);
    }
  }
  return applied;
}

/**
 * One read (the record, or for a new AWB the XTD grants recorded before it) and one write per
 * attempt. A new route map's creation is conditioned on those grants, so an XTD sendsme racing it
 * turns the creation into a conflict and the retry includes the grant: no second look is needed.
 */
async function applyOne(
  deps: IngestCarrierMessageDeps,
  report: CarrierReport,
  ctx: ApplyContext,
  now: string,
  known: Map<string, RouteMapBase>,
  budget: Budget,
  keepRaw: () => Promise<void>,
): Promise<AppliedMessage> {
  const key = awbKey(report.awb);
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    budget.ensureTimeFor(report.awb);
    const outcome = await budget.attempt(async (): Promise<AppliedMessage | "conflict"> => {
      let base = known.get(key);
      if (base === undefined) {
        base = await deps.routeMaps.getForChange(report.awb);
        known.set(key, base);
      }
      const result = applyReport(base.record?.state ?? null, report, ctx);
      if (!result.changed) return { awb: report.awb, changed: false, events: [] };
      const made = routeMapChangeFrom(base, result.state, result.events, now, result.historyOnly);
      // The snapshot remembers the message that made the change (our history's Provenance).
      const change =
        made.snapshot && ctx.receipt
          ? { ...made, snapshot: { ...made.snapshot, provenance: storedProvenance(report, ctx.receipt) } }
          : made;
      // The raw body first: an actual never names a receipt whose message is not kept.
      await keepRaw();
      if ((await deps.routeMaps.write(change)) !== "written") return "conflict";
      known.set(key, { record: change.next, earlyXtd: null });
      const observer = deps.changeObserver;
      if (observer) {
        await observer
          .observe({ previous: base.record, next: change.next, now })
          .catch((error: unknown) => observer.failed(error));
      }
      return {
        awb: report.awb,
        changed: true,
        events: result.events.filter((e) => e.type === "Event").map((e) => e.name),
      };
    });
    if (outcome !== "conflict") return outcome;
    known.delete(key);
    await deps.backoff(attempt);
  }
  throw new WriteConflictError(report.awb);
}

/** Keeps the received body once per request, before the first write that changes a route map. */
function rawKeeper(
  store: RawMessageStore | undefined,
  carrierPrefix: string,
  received: ReceivedBody | undefined,
): () => Promise<void> {
  let kept = false;
  return async () => {
    if (kept || store === undefined || received === undefined) return;
    await store.put({
      carrierPrefix,
      receiptId: received.receipt.id,
      channel: received.receipt.channel,
      receivedAt: received.receipt.at,
      contentType: received.contentType,
      body: received.body,
      ...(received.fetchedFrom ? { fetchedFrom: received.fetchedFrom } : {}),
    });
    kept = true;
  };
}

function uniqueAwbs(awbs: readonly AwbId[]): AwbId[] {
  const seen = new Map<string, AwbId>();
  for (const awb of awbs) seen.set(awbKey(awb), awb);
  return [...seen.values()];
}
