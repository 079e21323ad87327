/**
 * Status requests for the carrier gateway on the carrier-requests SQS queue (env
 * CARRIER_REQUESTS_QUEUE_URL): the body is the FSR-style Cargo-IMP text, attributes name the AWB, the
 * requesting forwarder and whether it was an XTD request. Locally the queue lives in fauxqs.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { QUEUES } from "../contracts/resources.ts";
import { formatAwb } from "../core/awb.ts";
import type { CarrierRequestPublisher } from "../core/ports/carriers.ts";
import { requiredEnv, sqs } from "./aws-clients.ts";

export function sqsCarrierRequestPublisher(
  queueUrl = requiredEnv(QUEUES.carrierRequests.envVar),
): CarrierRequestPublisher {
  return {
    async publish(request) {
      await sqs().send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: request.text,
          MessageAttributes: {
            AwbNumber: { DataType: "String", StringValue: formatAwb(request.awb) },
            ForwarderIdentifier: { DataType: "String", StringValue: request.forwarderId },
            IsXTD: { DataType: "String", StringValue: String(request.isXtd) },
            RequestedAt: { DataType: "String", StringValue: request.requestedAt },
          },
        }),
      );
    },
  };
}
