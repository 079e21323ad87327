/** The ONE Record routes' path parameters and queries, as the use cases take them. */
import type { InferOutput } from "valibot";
import { DEFAULT_EVENT_LIMIT, type EventFilter, MAX_EVENT_LIMIT } from "../core/one-record-server/events.ts";
import { parseInstant } from "../core/one-record-server/server-info.ts";
import { badRequest } from "./problems.ts";
import type { EventQuerySchema, ObjectQuerySchema } from "./routes/one-record.ts";

/** Ids are UUIDs, IATA codes or awb-{prefix}-{serial}: anything else is no id the service gave (404 later). */
export function objectIdFromPath(value: string | undefined): string {
  return value ?? "";
}

export function eventIdFromPath(value: string | undefined): string {
  return value ?? "";
}

function instant(text: string | undefined, field: string): string | null {
  if (text === undefined) return null;
  const parsed = parseInstant(text);
  if (parsed === null)
    throw badRequest(`${field} is not a valid instant.`, [{ field, message: "must be a valid instant" }]);
  return parsed;
}

export function objectQuery(query: InferOutput<typeof ObjectQuerySchema>) {
  return { embedded: query.embedded === "true", at: instant(query.at, "at") };
}

export function eventFilter(query: InferOutput<typeof EventQuerySchema>): EventFilter {
  const limit = query.limit === undefined ? DEFAULT_EVENT_LIMIT : Number(query.limit);
  if (limit < 1 || limit > MAX_EVENT_LIMIT)
    throw badRequest(`limit must be from 1 to ${MAX_EVENT_LIMIT}.`, [
      { field: "limit", message: `must be from 1 to ${MAX_EVENT_LIMIT}` },
    ]);
  return {
    eventCode: query["event-code"] ?? null,
    createdAfter: instant(query["created-after"], "created-after"),
    createdBefore: instant(query["created-before"], "created-before"),
    occurredAfter: instant(query["occurred-after"], "occurred-after"),
    occurredBefore: instant(query["occurred-before"], "occurred-before"),
    sort: query.sort ?? "asc",
    limit,
    skip: query.skip === undefined ? 0 : Number(query.skip),
  };
}
