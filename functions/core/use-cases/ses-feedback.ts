/**
 * SES feedback on an e-mail the service sent (a bounce or a complaint, from the configuration set's
 * event destination): the addresses concerned are suppressed (a permanent bounce, any complaint; a
 * transient bounce only shows in the log, the next alert may well get through), and the delivery
 * that sent the e-mail, found by its SES MessageId, gets an entry in its log that says so. Later
 * deliveries to a suppressed address are logged "suppressed" and not sent (deliver-job).
 * Idempotent: SQS may hand the same feedback over twice; it is logged once.
 */
import { normaliseAddress } from "../notifications/index.ts";
import type {
  DeliveryRecord,
  DeliveryRepository,
  DeliveryStatus,
  EmailSuppressionList,
} from "../ports/notifications.ts";

export interface EmailFeedback {
  kind: "bounce" | "complaint";
  /** SES MessageId of the e-mail concerned. */
  emailMessageId: string;
  /** The recipients SES names, with its diagnostic when it gave one. */
  recipients: ReadonlyArray<{ address: string; diagnostic?: string }>;
  /** Bounces: Permanent, Transient or Undetermined, and SES's sub-type (General, NoEmail, ...). */
  bounceType?: string;
  bounceSubType?: string;
  /** Complaints: the feedback type the recipient's provider gave (abuse, ...), when it gave one. */
  complaintType?: string;
  /** When SES reported it (ISO UTC). */
  at: string;
}

export interface SesFeedbackDeps {
  suppressions: EmailSuppressionList;
  deliveries: DeliveryRepository;
}

export interface SesFeedbackResult {
  /** Addresses now suppressed. */
  suppressed: string[];
  /** The delivery that sent the e-mail, null when none is known (expired, or not sent by us). */
  deliveryId: string | null;
  /** False when the delivery's log already had this feedback (a repeated message). */
  logged: boolean;
}

/** A bounce that says the address will never accept mail, or a complaint: stop mailing it. */
export function suppresses(feedback: EmailFeedback): boolean {
  return feedback.kind === "complaint" || feedback.bounceType === "Permanent";
}

/** What the delivery log says: what happened, to whom, and whether the address is suppressed now. */
export function feedbackDetail(feedback: EmailFeedback): string {
  const recipients = feedback.recipients
    .map(({ address, diagnostic }) => `${normaliseAddress(address)}${diagnostic ? ` (${diagnostic})` : ""}`)
    .join(", ");
  const what =
    feedback.kind === "bounce"
      ? `bounced (${[feedback.bounceType, feedback.bounceSubType].filter(Boolean).join("/") || "unknown"})`
      : `complaint${feedback.complaintType ? ` (${feedback.complaintType})` : ""}`;
  const then = suppresses(feedback)
    ? "; address suppressed, later alerts to it are not sent"
    : "; not suppressed (a temporary failure)";
  return `${what} reported by SES at ${feedback.at} for ${recipients || "the recipient"}${then}`;
}

const outcomeOf = (feedback: EmailFeedback) => (feedback.kind === "bounce" ? "bounced" : "complained");

/** The delivery's status after the feedback: a bounced e-mail never arrived; a complaint changes nothing. */
function statusAfter(feedback: EmailFeedback, delivery: DeliveryRecord): DeliveryStatus {
  return feedback.kind === "bounce" ? "parked" : delivery.status;
}

export async function sesFeedback(
  deps: SesFeedbackDeps,
  input: { feedback: EmailFeedback; now: string },
): Promise<SesFeedbackResult> {
  const { feedback, now } = input;
  const detail = feedbackDetail(feedback);
  const suppressed: string[] = [];
  if (suppresses(feedback)) {
    for (const recipient of feedback.recipients) {
      const address = normaliseAddress(recipient.address);
      await deps.suppressions.suppress({
        address,
        reason: feedback.kind,
        detail: recipient.diagnostic ?? detail,
        at: feedback.at,
        emailMessageId: feedback.emailMessageId,
      });
      suppressed.push(address);
    }
  }
  const delivery = await deps.deliveries.findByEmailMessageId(feedback.emailMessageId);
  if (!delivery) return { suppressed, deliveryId: null, logged: false };
  const outcome = outcomeOf(feedback);
  const sentBy = delivery.attempts.find((attempt) => attempt.emailMessageId === feedback.emailMessageId);
  const already = delivery.attempts.some(
    (attempt) => attempt.outcome === outcome && attempt.emailMessageId === feedback.emailMessageId,
  );
  if (already) return { suppressed, deliveryId: delivery.deliveryId, logged: false };
  await deps.deliveries.recordAttempt(
    delivery.deliveryId,
    {
      attempt: sentBy?.attempt ?? delivery.job.attempt,
      at: now,
      status: null,
      latencyMs: 0,
      outcome,
      detail,
      emailMessageId: feedback.emailMessageId,
    },
    statusAfter(feedback, delivery),
  );
  return { suppressed, deliveryId: delivery.deliveryId, logged: true };
}
