/**
 * Delivery: `deliver-job` takes the jobs matching queued on DeliveryJobs and sends each (webhook over
 * HTTPS, e-mail through SES), recording every attempt. A short retry goes back on the queue with a
 * delay; a longer one is a one-time EventBridge Scheduler schedule in the check group that puts the job
 * back on DeliveryJobs when due, so the Scheduler role may send there. A job that keeps failing ends on
 * the queue's alarmed dead-letter queue (lib/constructs/messaging.ts).
 */
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { Construct } from "constructs";
import type { SchedulerResources } from "../function-bindings.ts";
import { EventConsumers, type EventConsumersProps } from "./event-consumers.ts";

export class Delivery extends EventConsumers {
  readonly deliverJob: IFunction;

  constructor(scope: Construct, id: string, props: EventConsumersProps & { scheduler: SchedulerResources }) {
    super(scope, id, props);
    this.deliverJob = this.queueConsumer("deliver-job");
    // Long retries: Scheduler delivers the job back to its queue.
    props.queues.deliveryJobs.grantSendMessages(props.scheduler.role);
  }
}
