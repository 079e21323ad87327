/**
 * Scheduled checks: every plan or replan of a route map (an RMP outbox event on the RouteMaps stream)
 * reaches `plan-due-checks`, which creates or updates one one-time EventBridge Scheduler schedule per
 * due check in the check group and queues the checks already due. When a schedule fires, Scheduler puts
 * the check on DueChecks (with the Scheduler role, so that role may send there), where `run-due-check`
 * records a Missing status or a Missed/ProActive event and re-queues proactive checks and sweep
 * continuations. What Scheduler cannot deliver lands on its alarmed dead-letter queue.
 *
 * The check group, the Scheduler role and its dead-letter queue are created by the stack and passed in:
 * delivery retries are scheduled through them too, and every pending schedule names them, so they keep
 * the logical ids they have always had (a replaced group would take its pending schedules with it).
 */
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { Construct } from "constructs";
import type { SchedulerResources } from "../function-bindings.ts";
import { EventConsumers, type EventConsumersProps } from "./event-consumers.ts";

export class ScheduledChecks extends EventConsumers {
  readonly planDueChecks: IFunction;
  readonly runDueCheck: IFunction;

  constructor(scope: Construct, id: string, props: EventConsumersProps & { scheduler: SchedulerResources }) {
    super(scope, id, props);
    this.planDueChecks = this.streamConsumer("plan-due-checks");
    this.runDueCheck = this.queueConsumer("run-due-check");
    // Fired schedules: Scheduler delivers the due check to its queue.
    props.queues.dueChecks.grantSendMessages(props.scheduler.role);
  }
}
