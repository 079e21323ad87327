/**
 * ProActive sweep requests on the DueChecks queue (env DUE_CHECKS_QUEUE_URL): the run-due-check handler
 * tells them from due checks by their `kind`. The same queue as the checks, so sweeps get its
 * retries, DLQ and alarm, and no new queue or function is needed.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import * as v from "valibot";
import type { ProActiveSweepQueue, ProActiveSweepRequest } from "../core/ports/checks.ts";
import { sqs } from "./aws-clients.ts";
import { config } from "./config.ts";

/** The message body as written below; the run-due-check handler parses with it. */
export const ProActiveSweepMessageSchema = v.object({
  kind: v.literal("proactive-sweep"),
  ruleId: v.pipe(v.number(), v.integer()),
  forwarderId: v.pipe(v.string(), v.minLength(1)),
  ruleUpdatedAt: v.string(),
  cursor: v.nullable(
    v.object({
      reader: v.pipe(v.number(), v.integer(), v.minValue(0)),
      createdAtOrBefore: v.nullable(v.string()),
      sweptAtBound: v.array(v.string()),
    }),
  ),
}) satisfies v.GenericSchema<unknown, ProActiveSweepRequest>;

export function sqsProActiveSweepQueue(
  queueUrl: () => string = () => config.queueUrl("dueChecks"),
): ProActiveSweepQueue {
  return {
    async request(sweep: ProActiveSweepRequest) {
      await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(sweep) }));
    },
  };
}
