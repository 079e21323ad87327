/**
 * The SQS queues of lib/definitions, each with its dead-letter queue, TLS-only access, KMS encryption
 * and an alarm as soon as anything is parked on a DLQ (an engineer on call must see it).
 */
import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { type IQueue, Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { QUEUES } from "../definitions.ts";

export type QueueName = keyof typeof QUEUES;

export class Messaging extends Construct {
  readonly queues: Record<QueueName, IQueue>;
  readonly deadLetterQueues: Record<QueueName, IQueue>;
  /** Where EventBridge Scheduler parks checks it could not deliver. */
  readonly schedulerDeadLetterQueue: IQueue;

  constructor(scope: Construct, id: string, props: { key: IKey; alarmTopic: ITopic }) {
    super(scope, id);
    const queues = {} as Record<QueueName, IQueue>;
    const deadLetterQueues = {} as Record<QueueName, IQueue>;
    const common = { encryption: QueueEncryption.KMS, encryptionMasterKey: props.key, enforceSSL: true };
    const alarmOnDepth = (queue: IQueue, alarmId: string, description: string) => {
      new Alarm(this, alarmId, {
        alarmDescription: description,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new SnsAction(props.alarmTopic));
    };
    for (const [name, definition] of Object.entries(QUEUES) as Array<
      [QueueName, (typeof QUEUES)[QueueName]]
    >) {
      const deadLetterQueue = new Queue(this, `${definition.id}Dlq`, {
        ...common,
        retentionPeriod: Duration.days(14),
      });
      const queue = new Queue(this, definition.id, {
        ...common,
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
      });
      alarmOnDepth(
        deadLetterQueue,
        `${definition.id}DlqDepth`,
        `${definition.id}: messages parked on the dead-letter queue`,
      );
      queues[name] = queue;
      deadLetterQueues[name] = deadLetterQueue;
    }
    const schedulerDeadLetterQueue = new Queue(this, "SchedulerDlq", {
      ...common,
      retentionPeriod: Duration.days(14),
    });
    alarmOnDepth(
      schedulerDeadLetterQueue,
      "SchedulerDlqDepth",
      "Scheduled checks that could not be delivered",
    );
    this.queues = queues;
    this.deadLetterQueues = deadLetterQueues;
    this.schedulerDeadLetterQueue = schedulerDeadLetterQueue;
  }
}
