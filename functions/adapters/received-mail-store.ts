/**
 * Received mails as SES's receipt rule stores them: the raw MIME at
 * `s3://<INBOUND_MAIL_BUCKET>/inbound/<message id>`, read with GetObject and parsed with mailparser.
 * Locally the runner's S3 stand-in serves the mails its SMTP listener received (AWS_ENDPOINT_URL_S3,
 * path-style addressing).
 */
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { simpleParser } from "mailparser";
import { INBOUND_MAIL_OBJECT_PREFIX } from "../contracts/inbound-mail.ts";
import type { ReceivedMailContent, ReceivedMailStore } from "../core/ports/inbound-mail.ts";
import { config } from "./config.ts";

let s3Client: S3Client | undefined;

function s3(): S3Client {
  // A local endpoint has no bucket subdomains: address buckets in the path there.
  s3Client ??= new S3Client({ forcePathStyle: config.s3ForcePathStyle() });
  return s3Client;
}

/** A part is a text attachment when it is text/plain or named *.txt (gateways attach both ways). */
const isText = (contentType: string, name: string | undefined) =>
  contentType.toLowerCase().startsWith("text/plain") || /\.txt$/i.test(name ?? "");

/** Parses raw MIME into what the ingest reads: the From address, subject, text body, text attachments. */
export async function parseReceivedMail(raw: Buffer | string): Promise<ReceivedMailContent> {
  const parsed = await simpleParser(raw);
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
  };
}

export function s3ReceivedMailStore(bucket = config.inboundMailBucket()): ReceivedMailStore {
  return {
    async read(messageId) {
      const object = await s3().send(
        new GetObjectCommand({ Bucket: bucket, Key: `${INBOUND_MAIL_OBJECT_PREFIX}${messageId}` }),
      );
      if (!object.Body) throw new Error(`received mail ${messageId} has no content`);
      return parseReceivedMail(Buffer.from(await object.Body.transformToByteArray()));
    },
  };
}
