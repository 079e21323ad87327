/** Ports of Cargo-IMP by e-mail: which carrier an address sends for, and the inbound mail logs. */
import type { InboundMail } from "../inbound-mail.ts";
import type { AppliedMessage } from "../types.ts";

/** The registered sender addresses (InboundSenders of the carriers): each belongs to one carrier. */
export interface InboundSenderDirectory {
  /** The prefix of the carrier that registered this (lower-cased) address, or null. */
  carrierOf(address: string): Promise<string | null>;
}

export type InboundOutcome = "applied" | "refused" | "unknown-sender";

/** One received mail and what became of it. */
export interface InboundMailEntry {
  /** The carrier the sender is registered for; null for an unknown sender. */
  carrierPrefix: string | null;
  messageId: string;
  sender: string;
  subject: string;
  receivedAt: string;
  outcome: InboundOutcome;
  /** Why it was refused (a verdict, the line that could not be placed), else null. */
  reason: string | null;
  /** The line of the text the refusal names, else null. */
  line: number | null;
  /** The messages applied (outcome "applied"). */
  applied: readonly AppliedMessage[];
  /** An error e-mail went back to the sender. */
  replied: boolean;
}

export interface InboundMailPage {
  items: InboundMailEntry[];
  /** Opaque cursor of the next (older) page, or null on the last one. */
  next: string | null;
}

/** A carrier's inbound log (and the unknown senders' log), newest first. */
export interface InboundMailLog {
  /**
   * Records the entry once per mail: "duplicate" when this message id is already logged (SES retried
   * the invocation), so its error reply is not sent twice.
   */
  record(entry: InboundMailEntry): Promise<"recorded" | "duplicate">;
  /** A carrier's entries (carrierPrefix), or the unknown senders' (null), newest first. */
  list(
    carrierPrefix: string | null,
    page: { limit: number; cursor: string | null },
  ): Promise<InboundMailPage>;
}

/**
 * A received mail's content, as read from where it was stored (S3) and parsed (MIME). A mail over the
 * limits, or one the parser cannot read, has a `refusal` and no content (its sender and subject as far
 * as they could be read, else empty).
 */
export type ReceivedMailContent = Pick<InboundMail, "sender" | "subject" | "body" | "attachments"> & {
  refusal: string | null;
};

/** Where received mails wait (the SES receipt rule's bucket; locally the S3 stand-in). */
export interface ReceivedMailStore {
  /** The mail's content, or its refusal; throws only when the store cannot be read (retried). */
  read(messageId: string): Promise<ReceivedMailContent>;
}
