/**
 * Cargo-IMP by e-mail, as plain data the CDK stack, the function and the local
 * runner share: the function's id and folder, where SES stores the raw mail, how long mail and its
 * log are kept, and the local SMTP listener's default port.
 */

/** The function SES invokes for each received mail (`functions/handlers/mail/inbound-carrier-mail.ts`). */
export const INBOUND_MAIL_FUNCTION = { handler: "inbound-carrier-mail", folder: "mail" } as const;

/** Key prefix of the raw mails SES stores (the object key is this + SES's message id). */
export const INBOUND_MAIL_OBJECT_PREFIX = "inbound/";

/** Environment variable naming the bucket the raw mails are read from. */
export const INBOUND_MAIL_BUCKET_ENV = "INBOUND_MAIL_BUCKET";

/** Raw mails (bucket lifecycle) and their inbound log entries (TTL) are kept this many days. */
export const INBOUND_MAIL_RETENTION_DAYS = 30;

/** The local SMTP listener's port when SMTP_PORT is unset (127.0.0.1 only). */
export const DEFAULT_SMTP_PORT = 2525;

/** How long the function may run: one mail, up to 100 messages, then the reply. */
export const INBOUND_MAIL_TIMEOUT_SECONDS = 60;

/**
 * What a received mail may be before it is read at all (docs/decisions.md, Limits). A carrier's
 * Cargo-IMP mail is a few KB in one to three parts; past any of these the mail is refused unread,
 * with the limit as its reason (at SMTP time locally; in the carrier's inbound log, and to the sender,
 * in AWS, where SES has already accepted it). They keep the MIME parser far below its own limits
 * (1,000 parts, 1 MB of header per part), where it would throw.
 */
export const INBOUND_MAIL_LIMITS = {
  /** The whole raw mail (SES itself takes up to 40 MB). */
  maxBytes: 10 * 1024 * 1024,
  /** MIME entities: the mail itself, each body part, each attached message. */
  maxParts: 100,
  /** Multiparts and attached messages nested in one another. */
  maxDepth: 10,
  /** One header line (RFC 5322 asks for at most 998 characters; some gateways write longer). */
  maxHeaderLineBytes: 8 * 1024,
  /** The header block of one entity, each line counted as at least 64 bytes. */
  maxHeaderBytes: 64 * 1024,
} as const;

export type InboundMailLimits = { readonly [K in keyof typeof INBOUND_MAIL_LIMITS]: number };
