/** Builders for end-to-end route-map scenarios: dates relative to now, as Cargo-IMP has no year. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type * as v from "valibot";
import { expect } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import { toPair } from "../../functions/core/time/station-time.ts";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** Now, truncated to the minute (carrier messages carry minutes). */
export const minuteNow = () => Math.floor(Date.now() / 60_000) * 60_000;
export const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** Station-local parts of an instant: "2026-03-14T13:41" (JSON form), "14MAR", "1341". */
export function local(station: string, ms: number) {
  const text = toPair(station, iso(ms)).Local;
  return {
    jsonForm: text.slice(0, 16),
    date: text.slice(0, 10),
    ddmmm: `${text.slice(8, 10)}${MONTHS[Number(text.slice(5, 7)) - 1]}`,
    hhmm: `${text.slice(11, 13)}${text.slice(14, 16)}`,
  };
}

/** Items of one AWB partition with a sort-key prefix, straight from DynamoDB Local. */
export async function partitionItems(endpoint: string, awb11: string, prefix: string) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  );
  try {
    const result = await client.send(
      new QueryCommand({
        TableName: "RouteMaps",
        ...(prefix === ""
          ? { KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `AWB#${awb11}` } }
          : {
              KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
              ExpressionAttributeValues: { ":pk": `AWB#${awb11}`, ":p": prefix },
            }),
      }),
    );
    return result.Items ?? [];
  } finally {
    client.destroy();
  }
}

type AnySchema = v.GenericSchema & {
  type: string;
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  item?: AnySchema;
  options?: AnySchema[];
};

/**
 * Every object in `value` has exactly the keys the schema lists (recursively): nothing extra,
 * nothing missing. The schemas in schemas.ts mirror the spec's field tables.
 */
export function expectExactKeys(value: unknown, schema: AnySchema, path = "$"): void {
  if (schema.type === "nullable" || schema.type === "optional" || schema.type === "nullish") {
    if (value === null || value === undefined) return;
    expectExactKeys(value, schema.wrapped as AnySchema, path);
    return;
  }
  if (schema.type === "object" || schema.type === "strict_object") {
    expect(value, path).toBeTypeOf("object");
    const entries = schema.entries ?? {};
    expect(Object.keys(value as object).sort(), path).toEqual(Object.keys(entries).sort());
    for (const [key, child] of Object.entries(entries))
      expectExactKeys((value as Record<string, unknown>)[key], child, `${path}.${key}`);
    return;
  }
  if (schema.type === "array") {
    expect(Array.isArray(value), path).toBe(true);
    for (const [i, item] of (value as unknown[]).entries())
      expectExactKeys(item, schema.item as AnySchema, `${path}[${i}]`);
  }
}
