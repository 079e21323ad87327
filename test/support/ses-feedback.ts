/**
 * SES feedback as it reaches the feedback queue: SES's event-publishing JSON (what a configuration
 * set's event destination sends), wrapped the way SNS hands a message to an SQS subscriber.
 */

const SENT_AT = "2026-03-14T12:42:00.000Z";

/** SES's event-publishing JSON for a bounce of `messageId`, as the configuration set sends it. */
export function sesBounce(messageId: string, address: string, bounceType = "Permanent") {
  return {
    eventType: "Bounce",
    bounce: {
      bounceType,
      bounceSubType: "General",
      bouncedRecipients: [{ emailAddress: address, diagnosticCode: "smtp; 550 5.1.1 user unknown" }],
      timestamp: "2026-03-14T12:43:00.000Z",
      feedbackId: "feedback-1",
    },
    mail: { messageId, timestamp: SENT_AT, source: "alerts@service.example", destination: [address] },
  };
}

/** How SNS hands a message to an SQS subscriber (raw message delivery off). */
export const snsWrapped = (message: unknown) =>
  JSON.stringify({
    Type: "Notification",
    MessageId: "sns-1",
    TopicArn: "arn:aws:sns:eu-central-1:123456789012:feedback",
    Message: JSON.stringify(message),
    Timestamp: SENT_AT,
  });
