/**
 * The ONE Record subscription routes' answers as HTTP: JSON-LD with the API's headers, and refusals
 * as the API's api:Error documents (the status, a title and the detail), which ONE Record clients read.
 */
import type { Links } from "../core/one-record-server/objects.ts";
import { apiError } from "../core/one-record-server/subscriptions.ts";
import { CONTEXT } from "../core/one-record-server/vocabulary.ts";
import type { SubscriptionAnswer } from "../core/use-cases/one-record-subscriptions.ts";
import { httpDate, jsonLdHeaders } from "./one-record.ts";
import type { HttpResult } from "./request.ts";

const TITLES: Record<number, string> = { 400: "Bad Request", 403: "Forbidden", 404: "Not Found" };

export function oneRecordError(links: Links, status: 400 | 403 | 404, detail: string): HttpResult {
  return {
    status,
    body: { "@context": CONTEXT, ...apiError(links, status, TITLES[status] ?? "Error", detail) },
    headers: jsonLdHeaders(),
  };
}

export function subscriptionAnswer(links: Links, result: SubscriptionAnswer): HttpResult {
  switch (result.kind) {
    case "created":
      return { status: 201, headers: jsonLdHeaders({ location: result.location, type: result.type }) };
    case "ok":
      return {
        status: 200,
        body: result.body,
        headers: jsonLdHeaders({ type: result.type, "last-modified": httpDate(result.lastModified) }),
      };
    case "revoked":
      return { status: 204 };
    case "bad-request":
      return oneRecordError(links, 400, result.detail);
    case "forbidden":
      return oneRecordError(links, 403, result.detail);
    case "not-found":
      return oneRecordError(links, 404, result.detail);
  }
}

/** The body as JSON, or the api:Error saying it is not. */
export function jsonOf(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}
