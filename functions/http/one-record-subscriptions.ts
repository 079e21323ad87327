/**
 * The ONE Record subscription routes' answers as HTTP: JSON-LD with the API's headers. Refusals are
 * problem+json like every other refusal of the service, the ONE Record objects and events included,
 * so a client and the engineer on call read one error shape everywhere.
 */
import type { Links } from "../core/one-record-server/objects.ts";
import type { SubscriptionAnswer } from "../core/use-cases/one-record-subscriptions.ts";
import { httpDate, jsonLdHeaders } from "./one-record.ts";
import { ProblemError } from "./problems.ts";
import type { HttpResult } from "./request.ts";

const SLUGS: Record<400 | 403 | 404, string> = { 400: "bad-request", 403: "forbidden", 404: "not-found" };

/** Refuses the request (the links are kept for the callers' sake: they name the API's base). */
export function oneRecordError(_links: Links, status: 400 | 403 | 404, detail: string): never {
  throw new ProblemError(status, SLUGS[status], detail);
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

/** The body as JSON, or a note that it is not. */
export function jsonOf(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}
