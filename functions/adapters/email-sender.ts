/**
 * Notification e-mail through SES (SendEmail, HTML and text bodies). Source is env SENDER_ADDRESS
 * (default notifications@example.com, the stack's verified identity), ConfigurationSetName env
 * SES_CONFIGURATION_SET when set. Locally the same client talks to aws-ses-v2-local.
 */
import { SendEmailCommand } from "@aws-sdk/client-ses";
import type { EmailSender } from "../core/ports/notifications.ts";
import { ses } from "./aws-clients.ts";
import { config, type EmailSenderConfig } from "./config.ts";

/** SES errors worth retrying: throttling and service trouble; anything else refuses this message. */
const RETRYABLE_ERRORS = new Set([
  "Throttling",
  "ThrottlingException",
  "TooManyRequestsException",
  "ServiceUnavailable",
  "InternalFailure",
  "RequestTimeout",
  "TimeoutError",
]);

export function isRetryableSesError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return true;
  const { name, $fault, $metadata } = error as {
    name?: string;
    $fault?: string;
    $metadata?: { httpStatusCode?: number };
  };
  if ($fault === "server") return true;
  if (name && RETRYABLE_ERRORS.has(name)) return true;
  // No HTTP status at all: the request never got an answer (network), so trying again may work.
  return $metadata?.httpStatusCode === undefined;
}

export function sesEmailSender(
  settings: EmailSenderConfig = config.emailSender(),
  elapsed: () => number = () => performance.now(),
): EmailSender {
  const { senderAddress: source, configurationSet } = settings;
  return {
    async send(message) {
      const started = elapsed();
      const latency = () => Math.round(elapsed() - started);
      try {
        const sent = await ses().send(
          new SendEmailCommand({
            Source: source,
            Destination: { ToAddresses: [message.to] },
            Message: {
              Subject: { Data: message.subject, Charset: "UTF-8" },
              Body: {
                Html: { Data: message.html, Charset: "UTF-8" },
                Text: { Data: message.text, Charset: "UTF-8" },
              },
            },
            ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
          }),
        );
        return { kind: "sent", messageId: sent.MessageId ?? "", latencyMs: latency() };
      } catch (error) {
        return {
          kind: "failed",
          retryable: isRetryableSesError(error),
          message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          latencyMs: latency(),
        };
      }
    },
  };
}
