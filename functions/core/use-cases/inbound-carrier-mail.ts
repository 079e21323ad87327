/**
 * A mail received for carriers (SES receipt rule in AWS, the SMTP listener locally): from a registered
 * sender and with passing verdicts, its Cargo-IMP text goes through the SAME ingest as
 * `POST /carrier/messages` (text/plain, the sender's carrier as the caller), and the outcome lands in
 * the carrier's inbound log. Refusals change nothing:
 * - an unknown sender is logged in the unknown senders' log, never answered (no backscatter);
 * - a failing verdict (spam, virus, SPF/DKIM) or a disabled carrier is logged on the carrier, never
 *   answered (the From address may be forged);
 * - a message the ingest refuses (400 parse, 422 unplaceable, 403 another carrier's AWB), a mail
 *   without text, or a mail whose content was not read (over a size or structure limit, MIME the
 *   parser could not read: `mail.refusal`) is logged and answered with a short error e-mail naming the
 *   line or the limit.
 * So every mail that reaches the function ends as applied or refused, with its reason in a log.
 * Anything else the ingest throws (a store failure) propagates: the invocation is retried, and the
 * messages already stored are repeats the second time.
 */

import { ForeignAwbError, MessageParseError } from "../errors.ts";
import {
  carrierTextOf,
  type InboundMail,
  type MailProblem,
  normalizedAddress,
  replyToUnplaceable,
  verdictRefusal,
} from "../inbound-mail.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";
import type { InboundMailEntry, InboundMailLog, InboundSenderDirectory } from "../ports/inbound-mail.ts";
import type { EmailSender, EmailSendResult } from "../ports/notifications.ts";
import type { TenantRepository } from "../ports/tenants.ts";
import { type IngestCarrierMessageDeps, ingestCarrierMessage } from "./ingest-carrier-message.ts";
import { carrierRef } from "./shared/tenants.ts";

export interface InboundCarrierMailDeps extends IngestCarrierMessageDeps {
  senders: InboundSenderDirectory;
  carriers: CarrierDirectory;
  inboundLog: InboundMailLog;
  email: EmailSender;
  /** A disabled carrier (support's switch, as for its API clients) mails nothing in either. */
  tenants: Pick<TenantRepository, "getTenant">;
}

export interface InboundCarrierMailResult {
  entry: InboundMailEntry;
  /** The error reply's result, when one was sent. */
  reply: EmailSendResult | null;
}

/** The refusals of the ingest that the sender can correct: answered by mail, naming the line. */
function problemOf(error: unknown): MailProblem | null {
  if (error instanceof MessageParseError)
    return { line: error.line, reason: error.message.replace(/^line \d+(?: \([^)]*\))?: /, "") };
  if (error instanceof ForeignAwbError) return { line: null, reason: error.message };
  return null;
}

export async function inboundCarrierMail(
  deps: InboundCarrierMailDeps,
  mail: InboundMail,
  options: { timeLeftMs?: () => number } = {},
): Promise<InboundCarrierMailResult> {
  const sender = normalizedAddress(mail.sender);
  const base = {
    messageId: mail.messageId,
    sender,
    subject: mail.subject,
    receivedAt: mail.receivedAt,
    line: null,
    applied: [],
    replied: false,
  };
  const log = async (entry: InboundMailEntry, reply?: { text: string; problem: MailProblem }) => {
    const withReply = { ...entry, replied: reply !== undefined };
    const recorded = await deps.inboundLog.record(withReply);
    // A retried invocation of a mail already logged: its reply went out the first time.
    if (recorded === "duplicate" || reply === undefined) return { entry: withReply, reply: null };
    const message = replyToUnplaceable(mail, reply.text, reply.problem);
    return { entry: withReply, reply: await deps.email.send({ to: sender, ...message }) };
  };

  const carrierPrefix = await deps.senders.carrierOf(sender);
  const carrier = carrierPrefix === null ? null : await deps.carriers.get(carrierPrefix);
  // The lookup item and the carrier's list are written together; both must name the sender.
  if (carrierPrefix === null || !carrier?.inboundSenders?.includes(sender)) {
    return log({ ...base, carrierPrefix: null, outcome: "unknown-sender", reason: "sender not registered" });
  }
  const tenant = await deps.tenants.getTenant(carrierRef(carrierPrefix));
  if (tenant !== null && !tenant.enabled)
    return log({ ...base, carrierPrefix, outcome: "refused", reason: "carrier disabled" });
  const untrusted = verdictRefusal(mail.verdicts);
  if (untrusted !== null) return log({ ...base, carrierPrefix, outcome: "refused", reason: untrusted });

  if (mail.refusal) {
    const problem = { line: null, reason: `the e-mail was not read: ${mail.refusal}` };
    return log({ ...base, carrierPrefix, outcome: "refused", reason: problem.reason }, { text: "", problem });
  }
  const text = carrierTextOf(mail);
  if (text === null) {
    const problem = {
      line: null,
      reason: "the e-mail has no text: no text/plain body and no text attachment",
    };
    return log({ ...base, carrierPrefix, outcome: "refused", reason: problem.reason }, { text: "", problem });
  }
  try {
    const applied = await ingestCarrierMessage(deps, {
      carrierPrefix,
      contentType: "text/plain",
      body: text,
      now: mail.receivedAt,
      channel: "email",
      ...(options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {}),
    });
    return log({ ...base, carrierPrefix, outcome: "applied", reason: null, applied });
  } catch (error) {
    const problem = problemOf(error);
    if (problem === null) throw error;
    return log(
      { ...base, carrierPrefix, outcome: "refused", reason: problem.reason, line: problem.line },
      { text, problem },
    );
  }
}
