/**
 * The SQS queues of functions/contracts/resources.ts, each with its dead-letter queue, TLS-only access,
 * KMS encryption and an alarm as soon as anything is parked on a DLQ (an engineer on call must see it);
 * plus the parking queue of EventBridge Scheduler, alarmed the same way. The stream consumers' parking
 * queues are built with `parkingQueue` by the constructs that own the consumers.
 */
import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { type IQueue, Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { QUEUES } from "../../functions/contracts/resources.ts";

export type QueueName = keyof typeof QUEUES;

/** How long parked messages are kept: SQS's maximum, so nothing expires over a long weekend. */
const PARKED_RETENTION = Duration.days(14);

export class Messaging extends Construct {
  readonly queues: Record<QueueName, IQueue>;
  readonly deadLetterQueues: Record<QueueName, IQueue>;
  /** Where EventBridge Scheduler parks checks it could not deliver. */
  readonly schedulerDeadLetterQueue: IQueue;

  private readonly key: IKey;
  private readonly alarmTopic: ITopic;

  constructor(scope: Construct, id: string, props: { key: IKey; alarmTopic: ITopic }) {
    super(scope, id);
    this.key = props.key;
    this.alarmTopic = props.alarmTopic;
    const queues = {} as Record<QueueName, IQueue>;
    const deadLetterQueues = {} as Record<QueueName, IQueue>;
    for (const [name, definition] of Object.entries(QUEUES) as Array<
      [QueueName, (typeof QUEUES)[QueueName]]
    >) {
      const deadLetterQueue = this.parkingQueue(
        `${definition.id}Dlq`,
        `${definition.id}: messages parked on the dead-letter queue`,
      );
      const queue = new Queue(this, definition.id, {
        encryption: QueueEncryption.KMS,
        encryptionMasterKey: this.key,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
      });
      queues[name] = queue;
      deadLetterQueues[name] = deadLetterQueue;
    }
    this.queues = queues;
    this.deadLetterQueues = deadLetterQueues;
    this.schedulerDeadLetterQueue = this.parkingQueue(
      "SchedulerDlq",
      "Scheduled checks that could not be delivered",
    );
  }

  private parkingQueue(id: string, description: string): IQueue {
    return parkingQueue(this, id, description, { key: this.key, alarmTopic: this.alarmTopic });
  }
}

/**
 * An encrypted, TLS-only queue keeping messages 14 days (`<id>`), with an alarm on its first message
 * (`<id>Depth`): where failed messages or batches are parked for an operator.
 */
export function parkingQueue(
  scope: Construct,
  id: string,
  description: string,
  props: { key: IKey; alarmTopic: ITopic },
): IQueue {
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.KMS,
    encryptionMasterKey: props.key,
    enforceSSL: true,
    retentionPeriod: PARKED_RETENTION,
  });
  new Alarm(scope, `${id}Depth`, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  }).addAlarmAction(new SnsAction(props.alarmTopic));
  NagSuppressions.addResourceSuppressions(queue, [
    { id: "AwsSolutions-SQS3", reason: "This queue is itself where failed messages are parked." },
  ]);
  return queue;
}
