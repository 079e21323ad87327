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
