/**
 * Matching, the first step after a write: every outbox event a route-map write leaves in the RouteMaps
 * table reaches `match-event` through the table's stream (outbox inserts only), which writes one
 * delivery record and queues one delivery job (DeliveryJobs) per matching rule or webhook. A batch that
 * still fails after its retries is parked on the consumer's own alarmed queue, never dropped.
 */
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { Construct } from "constructs";
import { EventConsumers, type EventConsumersProps } from "./event-consumers.ts";

export class Matching extends EventConsumers {
  readonly matchEvent: IFunction;

  constructor(scope: Construct, id: string, props: EventConsumersProps) {
    super(scope, id, props);
    this.matchEvent = this.streamConsumer("match-event");
  }
}
