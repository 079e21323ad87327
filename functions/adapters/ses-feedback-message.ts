/**
 * The body of a message on the SES feedback queue: SES's event (configuration-set event publishing,
 * `eventType`) or notification (identity notifications, `notificationType`) JSON, wrapped in SNS's
 * envelope (`{"Type":"Notification","Message":"<the JSON as text>"}`) or raw. Bounces and complaints
 * become an EmailFeedback; anything else (a delivery event, an unreadable body) is null.
 */
import * as v from "valibot";
import type { EmailFeedback } from "../core/use-cases/ses-feedback.ts";

const SnsEnvelopeSchema = v.object({ Type: v.literal("Notification"), Message: v.string() });

const RecipientSchema = v.object({ emailAddress: v.string(), diagnosticCode: v.optional(v.string()) });

const SesEventSchema = v.object({
  eventType: v.optional(v.string()),
  notificationType: v.optional(v.string()),
  mail: v.object({ messageId: v.pipe(v.string(), v.minLength(1)), timestamp: v.optional(v.string()) }),
  bounce: v.optional(
    v.object({
      bounceType: v.optional(v.string()),
      bounceSubType: v.optional(v.string()),
      bouncedRecipients: v.array(RecipientSchema),
      timestamp: v.optional(v.string()),
    }),
  ),
  complaint: v.optional(
    v.object({
      complainedRecipients: v.array(RecipientSchema),
      complaintFeedbackType: v.optional(v.string()),
      timestamp: v.optional(v.string()),
    }),
  ),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The SES JSON inside an SNS envelope, or the body itself when SNS delivered it raw. */
function unwrapped(body: string): unknown {
  const parsed = parseJson(body);
  const envelope = v.safeParse(SnsEnvelopeSchema, parsed);
  return envelope.success ? parseJson(envelope.output.Message) : parsed;
}

/** A bounce or complaint of a queue message body, else null. `receivedAt`: when none is in the body. */
export function emailFeedbackOf(body: string, receivedAt: string): EmailFeedback | null {
  const event = v.safeParse(SesEventSchema, unwrapped(body));
  if (!event.success) return null;
  const { eventType, notificationType, mail, bounce, complaint } = event.output;
  const type = eventType ?? notificationType;
  const recipients = (list: ReadonlyArray<v.InferOutput<typeof RecipientSchema>>) =>
    list.map((recipient) => ({
      address: recipient.emailAddress,
      ...(recipient.diagnosticCode ? { diagnostic: recipient.diagnosticCode } : {}),
    }));
  if (type === "Bounce" && bounce) {
    return {
      kind: "bounce",
      emailMessageId: mail.messageId,
      recipients: recipients(bounce.bouncedRecipients),
      ...(bounce.bounceType ? { bounceType: bounce.bounceType } : {}),
      ...(bounce.bounceSubType ? { bounceSubType: bounce.bounceSubType } : {}),
      at: bounce.timestamp ?? receivedAt,
    };
  }
  if (type === "Complaint" && complaint) {
    return {
      kind: "complaint",
      emailMessageId: mail.messageId,
      recipients: recipients(complaint.complainedRecipients),
      ...(complaint.complaintFeedbackType ? { complaintType: complaint.complaintFeedbackType } : {}),
      at: complaint.timestamp ?? receivedAt,
    };
  }
  return null;
}
