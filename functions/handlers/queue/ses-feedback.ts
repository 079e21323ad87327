/**
 * SES feedback queue (configuration set -> SNS -> SQS): each bounce or complaint suppresses its
 * addresses and shows in the log of the delivery that sent the e-mail (ses-feedback.ts), with partial
 * batch failures. A body that is no bounce or complaint is dropped with a log line (retrying cannot
 * change it). Counted: EmailFeedback by kind.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { emailFeedbackPoint, emfMetrics, type MetricsRecorder } from "../../adapters/metrics.ts";
import { emailFeedbackOf } from "../../adapters/ses-feedback-message.ts";
import { traced } from "../../adapters/tracer.ts";
import { type SesFeedbackDeps, sesFeedback } from "../../core/use-cases/ses-feedback.ts";
import { deliveries, emailSuppressions } from "../../wiring.ts";

export const make = (
  deps: () => SesFeedbackDeps,
  { now = nowIso, metrics = emfMetrics }: { now?: () => string; metrics?: MetricsRecorder } = {},
) => {
  const handleRecord = async (record: SQSRecord) => {
    const feedback = emailFeedbackOf(record.body, now());
    if (!feedback) {
      logger.warn("SES feedback message that is no bounce or complaint: dropped", { id: record.messageId });
      return;
    }
    const result = await sesFeedback(deps(), { feedback, now: now() });
    logger.info("SES feedback", { kind: feedback.kind, emailMessageId: feedback.emailMessageId, ...result });
    metrics([emailFeedbackPoint(feedback.kind)]);
  };
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, handleRecord, new BatchProcessor(EventType.SQS), { context });
};

export const handler = traced(make(() => ({ suppressions: emailSuppressions(), deliveries: deliveries() })));
