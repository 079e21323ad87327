/**
 * What each DynamoDB call costs, measured rather than estimated: every data-plane call made through
 * the shared document client asks for its consumed capacity (`ReturnConsumedCapacity: "TOTAL"`, which
 * includes the indexes) and reports it as EMF metrics ReadCapacityUnits / WriteCapacityUnits with one
 * low-cardinality dimension, Operation = `<table>.<command>` (the table's logical id, e.g.
 * `RouteMaps.TransactWriteItems`), and to in-process listeners (bench/cost.ts sums them per business
 * operation). DynamoDB Local reports the same figures. A call that fails (a lost condition) reports
 * nothing: DynamoDB returns no capacity with the error, although it bills it.
 */
import type { ConsumedCapacity } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { config } from "./config.ts";
import { capacityPoints, emfMetrics } from "./metrics.ts";

/** One call's consumption. */
export interface CapacityUse {
  /** `<table logical id>.<command>`, e.g. `RouteMaps.Query`. */
  operation: string;
  readUnits: number;
  writeUnits: number;
}

export type CapacityListener = (use: CapacityUse) => void;

const listeners = new Set<CapacityListener>();

/** Calls `listener` with every call's consumption from now on; returns the function that stops it. */
export function onConsumedCapacity(listener: CapacityListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Skipped outright when metrics are off (locally, in tests: building the line costs CPU) or when
 * CAPACITY_METRICS=off: one EMF line per call is about 0.35 KB of CloudWatch Logs (docs/cost.md).
 */
const emitting = () => config.capacityMetrics();

const READS = new Set(["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"]);
const WRITES = new Set(["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"]);

/** Physical table name -> logical id (from the handlers' table environment variables). */
function logicalTable(name: string | undefined): string {
  return (name === undefined ? undefined : config.tableIds().get(name)) ?? "Other";
}

/** Read and write units of one ConsumedCapacity entry of a `command` (TOTAL gives CapacityUnits only). */
export function unitsOf(command: string, entry: ConsumedCapacity): { readUnits: number; writeUnits: number } {
  const total = entry.CapacityUnits ?? 0;
  return {
    readUnits: entry.ReadCapacityUnits ?? (READS.has(command) ? total : 0),
    writeUnits: entry.WriteCapacityUnits ?? (WRITES.has(command) ? total : 0),
  };
}

/** Adds the request and the report to a document client (aws-clients.ts does it once per container). */
export function reportConsumedCapacity(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? "").replace(/Command$/, "");
      // Asked for only when someone uses the answer (locally, with metrics off, nobody does).
      const measured = (READS.has(command) || WRITES.has(command)) && (emitting() || listeners.size > 0);
      if (measured) (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = "TOTAL";
      const result = await next(args);
      if (!measured) return result;
      const reported = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      for (const entry of Array.isArray(reported) ? reported : reported ? [reported] : []) {
        const use = { operation: `${logicalTable(entry.TableName)}.${command}`, ...unitsOf(command, entry) };
        if (emitting()) emfMetrics(capacityPoints(use));
        for (const listener of listeners) listener(use);
      }
      return result;
    },
    { step: "initialize", name: "reportConsumedCapacity" },
  );
}
