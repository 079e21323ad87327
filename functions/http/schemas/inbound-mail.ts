/** Support's view of Cargo-IMP by e-mail: one inbound log entry, as the log routes answer it. */
import * as v from "valibot";
import type { InboundMailEntry } from "../../core/ports/inbound-mail.ts";
import { appliedBody } from "../problems.ts";

export const InboundMailEntrySchema = v.object({
  MessageId: v.string(),
  Sender: v.string(),
  Subject: v.string(),
  ReceivedAt: v.string(),
  CarrierPrefix: v.pipe(
    v.nullable(v.string()),
    v.description("null: the sender is registered for no carrier"),
  ),
  Outcome: v.pipe(
    v.picklist(["applied", "refused", "unknown-sender"]),
    v.description("applied: went through the carrier-message ingest; refused: changed nothing (Reason)"),
  ),
  Reason: v.pipe(
    v.nullable(v.string()),
    v.description("Why it was refused: a verdict, or the line's problem"),
  ),
  Line: v.pipe(v.nullable(v.number()), v.description("Line of the mail's Cargo-IMP text the refusal names")),
  Applied: v.array(v.object({ AwbNumber: v.string(), Changed: v.boolean(), Events: v.array(v.string()) })),
  Replied: v.pipe(v.boolean(), v.description("An error e-mail naming the line went back to the sender")),
});

export function inboundMailEntryBody(entry: InboundMailEntry) {
  return {
    MessageId: entry.messageId,
    Sender: entry.sender,
    Subject: entry.subject,
    ReceivedAt: entry.receivedAt,
    CarrierPrefix: entry.carrierPrefix,
    Outcome: entry.outcome,
    Reason: entry.reason,
    Line: entry.line,
    Applied: appliedBody(entry.applied),
    Replied: entry.replied,
  };
}
