/**
 * SES bounces and complaints: the mail configuration set publishes them to an encrypted SNS topic,
 * which feeds the SesFeedback queue (functions/contracts/resources.ts: with its alarmed dead-letter
 * queue, lib/constructs/messaging.ts); `ses-feedback` reads it, suppresses the address and notes the
 * bounce in the log of the delivery that sent the e-mail.
 */

import { Stack } from "aws-cdk-lib";
import { PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import {
  ConfigurationSetEventDestination,
  EmailSendingEvent,
  EventDestination,
  type IConfigurationSet,
} from "aws-cdk-lib/aws-ses";
import { Topic } from "aws-cdk-lib/aws-sns";
import { SqsSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { Construct } from "constructs";
import { EventConsumers, type EventConsumersProps } from "./event-consumers.ts";

export class MailFeedback extends EventConsumers {
  readonly sesFeedback: IFunction;
  /** Where SES publishes bounces and complaints. */
  readonly topic: Topic;

  constructor(
    scope: Construct,
    id: string,
    props: EventConsumersProps & { configurationSet: IConfigurationSet },
  ) {
    super(scope, id, props);
    const { key, queues } = props;
    this.topic = new Topic(this, "Topic", {
      masterKey: key,
      enforceSSL: true,
      displayName: "Route Map Tracker: SES bounces and complaints",
    });
    // SES publishes to the encrypted topic with the data key, for this account's configuration sets only.
    const stack = Stack.of(this);
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal("ses.amazonaws.com")],
        actions: ["kms:GenerateDataKey*", "kms:Decrypt"],
        resources: ["*"],
        conditions: { StringEquals: { "aws:SourceAccount": stack.account } },
      }),
    );
    this.topic.addSubscription(new SqsSubscription(queues.sesFeedback));
    new ConfigurationSetEventDestination(this, "Destination", {
      configurationSet: props.configurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    this.sesFeedback = this.queueConsumer("ses-feedback");
  }
}
