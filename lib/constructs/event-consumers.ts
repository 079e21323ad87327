/**
 * What the async pipeline's constructs (matching, delivery, scheduled checks) share: each builds its
 * event functions, as functions/contracts/event-functions.ts describes them, with `streamConsumer` or
 * `queueConsumer`. A function gets its environment and grants from lib/function-bindings.ts (its entry
 * in lib/function-access.ts), its trigger from its definition; a stream consumer also gets its own
 * parking queue for the batches that failed after their retries.
 *
 * The functions, their roles, log groups and event-source mappings are built in `functionScope` (the
 * pipeline's nested stack); what holds data (the parking queues) and their alarms stay in this
 * construct, in the main stack, under the logical ids they have always had.
 */
import { Duration } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IKey } from "aws-cdk-lib/aws-kms";
import { FilterCriteria, FilterRule, type IFunction, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsDlq, SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import {
  EVENT_FUNCTIONS,
  type EventFunctionDefinition,
  type FilterPattern,
} from "../../functions/contracts/event-functions.ts";
import type { QueueName, TableName } from "../function-access.ts";
import { type FunctionBindings, KMS_WILDCARD_REASON, KMS_WILDCARDS } from "../function-bindings.ts";
import { HandlerFunction } from "./handler-function.ts";
import { parkingQueue } from "./messaging.ts";

/**
 * Oldest stream record a consumer still retries; older ones go to its failure queue. Well inside the
 * stream's 24 h retention, so an operator has about 18 h to redrive them from the stream.
 */
export const STREAM_MAX_RECORD_AGE = Duration.hours(6);

export interface EventConsumersProps {
  bindings: FunctionBindings;
  /** Where the functions are built: the pipeline's nested stack (stateless, apart from the data). */
  functionScope: Construct;
  tables: Record<TableName, ITable>;
  queues: Record<QueueName, IQueue>;
  /** Encrypt and alarm the stream consumers' parking queues. */
  key: IKey;
  alarmTopic: ITopic;
  logRetention: RetentionDays;
}

/** "match-event" -> "MatchEvent" (construct ids). */
function pascalCase(id: string): string {
  return id.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase());
}

/** Turns an event-source filter pattern into Lambda FilterCriteria. */
function toFilterRules(pattern: FilterPattern): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(pattern).map(([key, value]) => [
      key,
      Array.isArray(value) ? FilterRule.or(...(value as string[])) : toFilterRules(value as FilterPattern),
    ]),
  );
}

/** The event function of that handler id in functions/contracts/event-functions.ts, fed by `kind`. */
function definitionOf<Kind extends EventFunctionDefinition["source"]["kind"]>(
  handler: string,
  kind: Kind,
): EventFunctionDefinition & { source: Extract<EventFunctionDefinition["source"], { kind: Kind }> } {
  const definition = EVENT_FUNCTIONS.find((candidate) => candidate.handler === handler);
  if (!definition) throw new Error(`functions/contracts/event-functions.ts has no "${handler}"`);
  if (definition.source.kind !== kind) {
    throw new Error(`"${handler}" is fed by a ${definition.source.kind}, not a ${kind}`);
  }
  return definition as EventFunctionDefinition & {
    source: Extract<EventFunctionDefinition["source"], { kind: Kind }>;
  };
}

export abstract class EventConsumers extends Construct {
  /** The event functions built here, by handler id. */
  readonly functions = new Map<string, IFunction>();
  /** The stream consumers' parking queues built here, by handler id (the operations dashboard). */
  readonly failureQueues = new Map<string, IQueue>();

  constructor(
    scope: Construct,
    id: string,
    protected readonly consumers: EventConsumersProps,
  ) {
    super(scope, id);
  }

  /**
   * A function fed by its table's stream (new images, filtered): retried, bisected, records older than
   * STREAM_MAX_RECORD_AGE dropped to its own parking queue (`<Handler>StreamFailures`, alarmed).
   */
  protected streamConsumer(handler: string): IFunction {
    const definition = definitionOf(handler, "stream");
    const fn = this.handlerFunction(definition);
    // After its retries a failed batch is parked here (shard + sequence numbers), never dropped.
    const failures = parkingQueue(
      this,
      `${pascalCase(handler)}StreamFailures`,
      `${pascalCase(handler)}: stream batches that failed after retries (redrive from the stream within 24 h)`,
      this.consumers,
    );
    this.failureQueues.set(handler, failures);
    fn.addEventSource(
      new DynamoEventSource(this.consumers.tables[definition.source.table], {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: definition.source.batchSize,
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 10,
        maxRecordAge: STREAM_MAX_RECORD_AGE,
        onFailure: new SqsDlq(failures),
        filters: [FilterCriteria.filter(toFilterRules(definition.source.filter))],
      }),
    );
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: "AwsSolutions-IAM5",
          reason: "Stream event source: dynamodb:ListStreams supports no resource-level permission.",
          appliesTo: ["Resource::*"],
        },
        { id: "AwsSolutions-IAM5", reason: KMS_WILDCARD_REASON, appliesTo: [...KMS_WILDCARDS] },
      ],
      true,
    );
    return fn;
  }

  /**
   * A function fed by its queue, in batches, reporting the messages that failed; with the source's
   * maximum concurrency, and its slow lane (a second queue with its own small concurrency) if it has one.
   */
  protected queueConsumer(handler: string): IFunction {
    const definition = definitionOf(handler, "queue");
    const fn = this.handlerFunction(definition);
    const { source } = definition;
    const lanes = [
      { queue: source.queue, batchSize: source.batchSize, maxConcurrency: source.maxConcurrency },
      ...(source.slowLane ? [source.slowLane] : []),
    ];
    for (const lane of lanes) {
      fn.addEventSource(
        new SqsEventSource(this.consumers.queues[lane.queue], {
          batchSize: lane.batchSize,
          reportBatchItemFailures: true,
          ...(lane.maxConcurrency === undefined ? {} : { maxConcurrency: lane.maxConcurrency }),
        }),
      );
    }
    return fn;
  }

  private handlerFunction(definition: EventFunctionDefinition): IFunction {
    const { bindings, logRetention } = this.consumers;
    const fn = new HandlerFunction(this.consumers.functionScope, pascalCase(definition.handler), {
      handlerPath: `${definition.folder}/${definition.handler}`,
      environment: bindings.environmentFor(definition.handler),
      logRetention,
      timeout: Duration.seconds(definition.timeoutSeconds),
    }).fn;
    bindings.grant(definition.handler, fn);
    this.functions.set(definition.handler, fn);
    return fn;
  }
}
