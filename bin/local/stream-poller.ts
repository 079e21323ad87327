/**
 * Reads DynamoDB Local's stream of a table and invokes a handler with real DynamoDBStreamEvent batches,
 * as the Lambda event-source mapping does: records pass the same filter as in the stack, a batch is
 * retried from the first failed record (`batchItemFailures`), and a handler that throws is retried.
 */

import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { type FilterPattern, matchesFilter } from "../../functions/contracts/event-functions.ts";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "./emulators.ts";
import { type LambdaHandler, lambdaContext } from "./lambda.ts";

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  functionName: string;
  handler: () => Promise<LambdaHandler>;
  batchSize: number;
  filter: FilterPattern | null;
  /** Milliseconds between polls of an idle shard. */
  idleMs?: number;
  onError?: (error: unknown) => void;
}

export interface Poller {
  stop(): Promise<void>;
}

/** Converts the SDK record to the JSON shape Lambda delivers (same field names, epoch seconds). */
function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord["eventName"],
    eventVersion: record.eventVersion ?? "1.1",
    eventSource: "aws:dynamodb",
    awsRegion: record.awsRegion ?? LOCAL_REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: data.ApproximateCreationDateTime
        ? Math.floor(new Date(data.ApproximateCreationDateTime).getTime() / 1000)
        : Math.floor(Date.now() / 1000),
      // The SDK's AttributeValue union and aws-lambda's are the same JSON with different type names.
      Keys: data.Keys as never,
      NewImage: data.NewImage as never,
      OldImage: data.OldImage as never,
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType as never,
    },
  };
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<Poller> {
  const config = { endpoint: options.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const dynamo = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const table = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = table.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);

  let running = true;
  const idleMs = options.idleMs ?? 50;
  const pending: DynamoDBRecord[] = [];
  const iterators = new Map<string, string | undefined>();
  /** Last sequence number read per shard, to re-acquire an iterator without re-reading anything. */
  const lastSequence = new Map<string, string>();

  async function acquire(shardId: string): Promise<void> {
    const last = lastSequence.get(shardId);
    const iterator = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(last
          ? { ShardIteratorType: "AFTER_SEQUENCE_NUMBER", SequenceNumber: last }
          : { ShardIteratorType: "TRIM_HORIZON" }),
      }),
    );
    iterators.set(shardId, iterator.ShardIterator);
  }

  async function refreshShards(): Promise<void> {
    const description = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of description.StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      await acquire(shard.ShardId);
    }
  }

  /**
   * DynamoDB Local numbers stream records across ALL tables: an iterator taken on an empty shard
   * fails with TrimmedDataAccessException once another table was written first. Re-acquiring (after
   * the last record read, or from the start when none was) loses and repeats nothing.
   */
  async function readShard(shardId: string, iterator: string) {
    try {
      return await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      if (name !== "TrimmedDataAccessException" && name !== "ExpiredIteratorException") throw error;
      await acquire(shardId);
      const fresh = iterators.get(shardId);
      return fresh ? await streams.send(new GetRecordsCommand({ ShardIterator: fresh, Limit: 1000 })) : null;
    }
  }

  async function deliver(): Promise<void> {
    while (running && pending.length > 0) {
      const batch = pending.slice(0, options.batchSize);
      const event: DynamoDBStreamEvent = { Records: batch };
      let response: DynamoDBBatchResponse | undefined;
      try {
        const handler = await options.handler();
        response = (await handler(event, lambdaContext(options.functionName))) as
          | DynamoDBBatchResponse
          | undefined;
      } catch (error) {
        // A thrown error fails the whole batch: Lambda retries it from its first record.
        options.onError?.(error);
        await sleep(500);
        continue;
      }
      const failures = response?.batchItemFailures ?? [];
      if (failures.length === 0) {
        pending.splice(0, batch.length);
        continue;
      }
      // Resume from the lowest failed sequence number (Lambda's ReportBatchItemFailures semantics).
      const failedSequences = new Set(failures.map((failure) => failure.itemIdentifier));
      const firstFailed = batch.findIndex((record) =>
        failedSequences.has(record.dynamodb?.SequenceNumber ?? ""),
      );
      pending.splice(0, firstFailed < 0 ? batch.length : firstFailed);
      await sleep(200);
    }
  }

  // New shards are rare; describing the stream on every poll would cost more than reading it.
  let shardsRefreshedAt = 0;
  const loop = (async () => {
    while (running) {
      try {
        if (iterators.size === 0 || Date.now() - shardsRefreshedAt > 1000) {
          await refreshShards();
          shardsRefreshedAt = Date.now();
        }
        let received = 0;
        for (const [shardId, iterator] of iterators) {
          if (!iterator) continue;
          const page = await readShard(shardId, iterator);
          if (!page) continue;
          iterators.set(shardId, page.NextShardIterator);
          for (const record of page.Records ?? []) {
            if (record.dynamodb?.SequenceNumber) lastSequence.set(shardId, record.dynamodb.SequenceNumber);
            const lambdaRecord = toLambdaRecord(record, streamArn);
            if (!options.filter || matchesFilter(lambdaRecord, options.filter)) pending.push(lambdaRecord);
          }
          received += page.Records?.length ?? 0;
        }
        await deliver();
        if (received === 0) await sleep(idleMs);
      } catch (error) {
        if (running) options.onError?.(error);
        await sleep(500);
      }
    }
  })();

  return {
    async stop() {
      running = false;
      await loop;
      dynamo.destroy();
      streams.destroy();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
