/**
 * Received mails as SES's receipt rule stores them: the raw MIME at
 * `s3://<INBOUND_MAIL_BUCKET>/inbound/<message id>`, read with GetObject and parsed with mailparser.
 * Locally the runner's S3 stand-in serves the mails its SMTP listener received (AWS_ENDPOINT_URL_S3,
 * path-style addressing).
 *
 * SES accepts what its own limits allow (40 MB, any structure) before our code sees the mail, so the
 * limits are checked here, before parsing (functions/adapters/mime-structure.ts): a mail over
 * INBOUND_MAIL_LIMITS, or one mailparser cannot read, comes back as a refusal with its reason (and the
 * sender and subject its own header names), never as an error that would lose it after retries.
 */
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { simpleParser } from "mailparser";
import { INBOUND_MAIL_LIMITS, INBOUND_MAIL_OBJECT_PREFIX } from "../contracts/inbound-mail.ts";
import type { ReceivedMailContent, ReceivedMailStore } from "../core/ports/inbound-mail.ts";
import { config } from "./config.ts";
import { addressesOf, decodeWords, headerValue, scanMime } from "./mime-structure.ts";
import { captured } from "./tracer.ts";

let s3Client: S3Client | undefined;

function s3(): S3Client {
  // A local endpoint has no bucket subdomains: address buckets in the path there.
  s3Client ??= captured(new S3Client({ forcePathStyle: config.s3ForcePathStyle() }));
  return s3Client;
}

/** A part is a text attachment when it is text/plain or named *.txt (gateways attach both ways). */
const isText = (contentType: string, name: string | undefined) =>
  contentType.toLowerCase().startsWith("text/plain") || /\.txt$/i.test(name ?? "");

/**
 * Parses raw MIME into what the ingest reads: the From address, subject, text body, text attachments;
 * or, over the limits or unreadable, the refusal (with the From address and subject of its header).
 */
export async function parseReceivedMail(raw: Buffer | string): Promise<ReceivedMailContent> {
  const bytes = typeof raw === "string" ? Buffer.from(raw) : raw;
  const scan = scanMime(bytes, INBOUND_MAIL_LIMITS);
  const refused = (reason: string): ReceivedMailContent => ({
    sender: (addressesOf(headerValue(scan.headers, "from") ?? "")[0] ?? "").toLowerCase(),
    subject: decodeWords(headerValue(scan.headers, "subject") ?? ""),
    body: null,
    attachments: [],
    refusal: reason,
  });
  if (scan.refusal !== null) return refused(scan.refusal);
  let parsed: Awaited<ReturnType<typeof simpleParser>>;
  try {
    parsed = await simpleParser(bytes);
  } catch (error) {
    return refused(`its MIME could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const from = parsed.from?.value[0]?.address ?? "";
  return {
    sender: from.trim().toLowerCase(),
    subject: parsed.subject ?? "",
    body: typeof parsed.text === "string" ? parsed.text : null,
    attachments: parsed.attachments
      .filter((attachment) => isText(attachment.contentType, attachment.filename))
      .map((attachment) => ({
        name: attachment.filename ?? null,
        text: attachment.content.toString("utf8"),
      })),
    refusal: null,
  };
}

/** A mail too large to fetch: refused unread (SES's commonHeaders name its sender and subject). */
const tooLarge = (): ReceivedMailContent => ({
  sender: "",
  subject: "",
  body: null,
  attachments: [],
  refusal: `the e-mail is larger than ${Math.round(INBOUND_MAIL_LIMITS.maxBytes / 1024)} KB`,
});

export function s3ReceivedMailStore(bucket = config.inboundMailBucket()): ReceivedMailStore {
  return {
    async read(messageId) {
      const object = await s3().send(
        new GetObjectCommand({ Bucket: bucket, Key: `${INBOUND_MAIL_OBJECT_PREFIX}${messageId}` }),
      );
      if (!object.Body) throw new Error(`received mail ${messageId} has no content`);
      if ((object.ContentLength ?? 0) > INBOUND_MAIL_LIMITS.maxBytes) {
        // Not downloaded: SES stores up to 40 MB.
        (object.Body as { destroy?: () => void }).destroy?.();
        return tooLarge();
      }
      return parseReceivedMail(Buffer.from(await object.Body.transformToByteArray()));
    },
  };
}
