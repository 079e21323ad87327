/**
 * Cargo-IMP by e-mail, locally: what SES's receipt rule does in AWS, on this
 * machine. A real SMTP listener (smtp-server, 127.0.0.1 only, no TLS, no auth, any recipient) takes
 * each mail, stores its raw MIME in an S3 stand-in under `inbound/<message id>` (the bucket the
 * receipt rule's S3 action writes), and invokes `inbound-carrier-mail` with the SES event shape the
 * Lambda action sends, every verdict PASS (the local listener runs no spam, virus, SPF or DKIM
 * checks). The function reads the mail back through @aws-sdk/client-s3 from the stand-in
 * (AWS_ENDPOINT_URL_S3), as it reads the bucket in AWS. Like an SES event invocation, a failed
 * invocation is retried twice.
 *
 * The listener refuses at SMTP time (552) only a mail larger than INBOUND_MAIL_LIMITS.maxBytes, as an
 * SMTP server announcing SIZE does. A mail over a structure limit (parts, nesting, header lines) is
 * accepted (250), as SES accepts it, and the function ends it as refused in the carrier's inbound log
 * with the limit as its reason, answering the sender: every mail the listener accepts ends applied or
 * refused in a log, locally as in AWS. The SES event's headers come from the same line-by-line scan,
 * never from a parser that could throw.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { SESEvent } from "aws-lambda";
import { SMTPServer } from "smtp-server";
import { nowMs } from "../../functions/adapters/clock.ts";
import {
  addressesOf,
  decodeWords,
  headerValue,
  type MimeScan,
  scanMime,
} from "../../functions/adapters/mime-structure.ts";
import {
  INBOUND_MAIL_FUNCTION,
  INBOUND_MAIL_LIMITS,
  INBOUND_MAIL_OBJECT_PREFIX,
} from "../../functions/contracts/inbound-mail.ts";
import { LOCAL_REGION } from "./emulators.ts";
import { type LambdaHandler, lambdaContext } from "./lambda.ts";

/** The local bucket's name (INBOUND_MAIL_BUCKET). */
export const LOCAL_INBOUND_MAIL_BUCKET = "inbound-mail";

export interface S3StandIn {
  endpoint: string;
  put(bucket: string, key: string, body: Buffer): void;
  stop(): Promise<void>;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/** GetObject over path-style URLs (`GET /<bucket>/<key>`), from memory; 127.0.0.1 only. */
export async function startS3StandIn(port: number): Promise<S3StandIn> {
  const objects = new Map<string, { body: Buffer; modified: Date }>();
  const server: Server = createServer((request, response) => {
    let path: string | null;
    try {
      path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      // Not a key any object was stored under (a URIError must not take the runner down).
      path = null;
    }
    const found = path === null ? undefined : objects.get(path.slice(1));
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { "content-type": "application/xml" });
      response.end(xmlError("MethodNotAllowed", "only GetObject"));
    } else if (!found) {
      response.writeHead(404, { "content-type": "application/xml" });
      response.end(xmlError("NoSuchKey", "The specified key does not exist."));
    } else {
      response.writeHead(200, {
        "content-type": "message/rfc822",
        "content-length": String(found.body.length),
        "last-modified": found.modified.toUTCString(),
        etag: `"${found.body.length}-${found.modified.getTime()}"`,
      });
      response.end(request.method === "HEAD" ? undefined : found.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    put: (bucket, key, body) => objects.set(`${bucket}/${key}`, { body, modified: new Date() }),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An SES-style message id (lower-case letters and digits). */
const sesMessageId = () => randomBytes(20).toString("hex");

/** SES's event carries at most about 10 KB of header fields, marking the event when it cut them. */
const SES_EVENT_HEADERS_MAX_CHARS = 10 * 1024;

/** The event SES's Lambda action sends for one received mail (verdicts: PASS, locally). */
export async function sesEventOf(
  raw: Buffer,
  messageId: string,
  envelope: { mailFrom: string; recipients: string[] },
  receivedAt: Date,
  scanned: MimeScan = scanMime(raw, INBOUND_MAIL_LIMITS),
): Promise<SESEvent> {
  const field = (name: string) => headerValue(scanned.headers, name);
  const from = addressesOf(field("from") ?? "");
  const sent = new Date(field("date") ?? "");
  const headers: Array<{ name: string; value: string }> = [];
  let chars = 0;
  for (const { name, value } of scanned.headers) {
    chars += name.length + value.length;
    if (chars > SES_EVENT_HEADERS_MAX_CHARS) break;
    headers.push({ name, value });
  }
  const pass = { status: "PASS" };
  return {
    Records: [
      {
        eventSource: "aws:ses",
        eventVersion: "1.0",
        ses: {
          mail: {
            timestamp: receivedAt.toISOString(),
            source: envelope.mailFrom,
            messageId,
            destination: envelope.recipients,
            headersTruncated: headers.length < scanned.headers.length,
            headers,
            commonHeaders: {
              returnPath: envelope.mailFrom,
              from,
              date: (Number.isNaN(sent.getTime()) ? receivedAt : sent).toUTCString(),
              to: envelope.recipients,
              messageId: field("message-id") ?? messageId,
              subject: decodeWords(field("subject") ?? ""),
            },
          },
          receipt: {
            timestamp: receivedAt.toISOString(),
            processingTimeMillis: 0,
            recipients: envelope.recipients,
            spamVerdict: pass,
            virusVerdict: pass,
            spfVerdict: pass,
            dkimVerdict: pass,
            dmarcVerdict: pass,
            dmarcPolicy: "none",
            action: {
              type: "Lambda",
              functionArn: `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:${INBOUND_MAIL_FUNCTION.handler}`,
              invocationType: "Event",
            },
          },
        },
      },
    ],
  } as SESEvent;
}

export interface SmtpListener {
  port: number;
  stop(): Promise<void>;
}

export async function startSmtpListener(options: {
  port: number;
  s3: S3StandIn;
  handler: () => Promise<LambdaHandler>;
  onError: (error: unknown) => void;
}): Promise<SmtpListener> {
  const invoke = async (event: SESEvent) => {
    // An SES event invocation: Lambda retries a failed one twice.
    for (let attempt = 1; ; attempt++) {
      try {
        await (await options.handler())(event, lambdaContext(INBOUND_MAIL_FUNCTION.handler, 60_000));
        return;
      } catch (error) {
        if (attempt >= 3) return options.onError(error);
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    size: INBOUND_MAIL_LIMITS.maxBytes,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => callback(error));
      stream.on("end", () => {
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded) {
          callback(Object.assign(new Error("message too large"), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        // A mail over a structure limit is accepted like any other, as SES accepts it: the function
        // reads the scan's refusal, logs the mail refused with its reason and answers the sender.
        const scanned = scanMime(raw, INBOUND_MAIL_LIMITS);
        const messageId = sesMessageId();
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        options.s3.put(LOCAL_INBOUND_MAIL_BUCKET, `${INBOUND_MAIL_OBJECT_PREFIX}${messageId}`, raw);
        // Accepted (250) first; the function runs afterwards, as SES invokes it asynchronously.
        callback(null, `Ok: queued as ${messageId}`);
        sesEventOf(raw, messageId, { mailFrom, recipients }, new Date(nowMs()), scanned)
          .then(invoke)
          .catch(options.onError);
      });
    },
  });
  server.on("error", options.onError);
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
