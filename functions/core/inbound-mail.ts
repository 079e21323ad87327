/**
 * Cargo-IMP by e-mail: a carrier's Type B gateway mails FSU/FWB/FFR/FFA text from
 * addresses support registered on the carrier (`InboundSenders`). What a received mail is, the checks
 * it must pass before its text reaches the carrier-message ingest, and the short reply that names the
 * line of a message we could not place. Pure: the SES event, S3 and MIME parsing stay in the adapters.
 */

/** The verdicts SES gives a received mail (PASS, FAIL, GRAY, PROCESSING_FAILED, DISABLED, ...). */
export interface MailVerdicts {
  spam: string;
  virus: string;
  spf: string;
  dkim: string;
}

/** One received mail, as the ingest reads it. */
export interface InboundMail {
  /** SES's message id (locally: the SMTP listener's): the key of the raw mail and of its log entry. */
  messageId: string;
  /** The From address, lower-cased (what the allow-list and DKIM alignment look at). */
  sender: string;
  subject: string;
  /** When the mail was received, ISO UTC: the receipt time of the carrier messages it carries. */
  receivedAt: string;
  /** The text/plain body, if any. */
  body: string | null;
  /** Text attachments (text/plain, or a name ending .txt), in message order. */
  attachments: ReadonlyArray<{ name: string | null; text: string }>;
  /**
   * Why the mail's content was not read (over a limit of size or structure, or MIME the parser could
   * not read), with no body and no attachments; absent or null when it was read.
   */
  refusal?: string | null;
  verdicts: MailVerdicts;
}

/** Most addresses one carrier may register: a gateway or two, a test sender, a fallback desk. */
export const MAX_INBOUND_SENDERS = 20;

/** Trimmed and lower-cased: SES and the allow-list compare addresses case-insensitively. */
export function normalizedAddress(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * Why a mail is not trusted, or null when it is: spam and virus must be PASS; SPF and DKIM must not
 * FAIL, and at least one of them must PASS, so the From address is the sender's (a gateway that does
 * not sign passes on SPF, a forwarded mail that breaks SPF passes on DKIM). Anything else (GRAY,
 * PROCESSING_FAILED, DISABLED) is not a pass: such mail is refused and logged, never half-trusted.
 */
export function verdictRefusal(verdicts: MailVerdicts): string | null {
  const status = (value: string) => value.trim().toUpperCase();
  if (status(verdicts.spam) !== "PASS") return `spam verdict ${status(verdicts.spam)}`;
  if (status(verdicts.virus) !== "PASS") return `virus verdict ${status(verdicts.virus)}`;
  if (status(verdicts.spf) === "FAIL") return "SPF verdict FAIL";
  if (status(verdicts.dkim) === "FAIL") return "DKIM verdict FAIL";
  if (status(verdicts.spf) !== "PASS" && status(verdicts.dkim) !== "PASS")
    return `neither SPF (${status(verdicts.spf)}) nor DKIM (${status(verdicts.dkim)}) passed`;
  return null;
}

/**
 * The Cargo-IMP text a mail carries: its text attachments (joined, in order) when it has any, since a
 * gateway that attaches the message often writes a cover note in the body; else the body. Line numbers
 * of an error count lines of this text. Null when there is none (blank body, no attachment).
 */
export function carrierTextOf(mail: Pick<InboundMail, "body" | "attachments">): string | null {
  const attached = mail.attachments.map((a) => a.text).filter((text) => text.trim() !== "");
  const text = attached.length > 0 ? attached.join("\n") : (mail.body ?? "");
  const normalized = text.replace(/\r\n?/g, "\n");
  return normalized.trim() === "" ? null : normalized;
}

/** What the ingest refused, as the reply and the log name it. */
export interface MailProblem {
  /** 1-based line of the text, when the refusal names one. */
  line: number | null;
  reason: string;
}

/** The line's own text (for the reply), or null when out of range. */
export function lineOf(text: string, line: number | null): string | null {
  if (line === null) return null;
  const found = text.split("\n")[line - 1];
  return found === undefined ? null : found;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** Subject of the reply: the original subject (if any), marked as not placed. */
export function replySubject(subject: string): string {
  const original = subject
    .replace(/[\r\n]+/g, " ")
    .trim()
    .slice(0, 150);
  return original === "" ? "Carrier message not placed" : `Not placed: ${original}`;
}

/** The short error e-mail to the sender: which line, what was wrong, nothing of it was stored. */
export function replyToUnplaceable(
  mail: Pick<InboundMail, "subject" | "receivedAt">,
  text: string,
  problem: MailProblem,
): { subject: string; text: string; html: string } {
  const quoted = lineOf(text, problem.line);
  const where = problem.line === null ? "Your message" : `Line ${problem.line} of your message`;
  const lines = [
    `${where} received ${mail.receivedAt} could not be placed: ${problem.reason}`,
    ...(quoted === null ? [] : ["", `  ${quoted}`]),
    "",
    "Nothing of this e-mail was stored. Correct the message and send it again.",
  ];
  return {
    subject: replySubject(mail.subject),
    text: `${lines.join("\n")}\n`,
    html: `<p>${escapeHtml(`${where} received ${mail.receivedAt} could not be placed: ${problem.reason}`)}</p>${
      quoted === null ? "" : `<pre>${escapeHtml(quoted)}</pre>`
    }<p>Nothing of this e-mail was stored. Correct the message and send it again.</p>`,
  };
}
