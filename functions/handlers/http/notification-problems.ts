/**
 * Shared by the notification handlers: path ids, paging, the caller as a subscriber, and the mapping
 * of the subscription use cases' refusals to problem+json (DESIGN.md section 6).
 */
import * as v from "valibot";
import {
  DeliveryInProgressError,
  SubscriptionLimitError,
  SubscriptionNotFoundError,
  UnusableReferenceError,
} from "../../core/errors.ts";
import type { Identity } from "../../core/identity.ts";
import type { SubscriberIdentity } from "../../core/notifications/index.ts";
import type { PageRequest } from "../../core/ports/notifications.ts";
import { issuesToFieldErrors } from "./kit.ts";
import { badRequest, notFound, ProblemError, unprocessable } from "./problem.ts";
import { asForwarder } from "./route-map-problems.ts";
import { PagingQuerySchema } from "./schemas.ts";

/** The caller as the owner of what it creates (identity from its token, never from the body). */
export function subscriber(identity: Identity): SubscriberIdentity {
  const forwarder = asForwarder(identity);
  return {
    forwarderId: forwarder.forwarderId,
    agentCode: forwarder.agentCode,
    agentCass: forwarder.agentCass,
    agentStation: forwarder.agentStation,
  };
}

/** `{id}` of a rule or webhook: a positive integer, else 400 naming `id`. */
export function idFromPath(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value)) {
    throw badRequest("The id must be a positive integer.", [
      { field: "id", message: "must be a positive integer" },
    ]);
  }
  return Number(value);
}

/** `?CurrentPage=&PageSize=` (default 1 and 100, PageSize at most 500). */
export function pageFromQuery(query: Record<string, string>): PageRequest {
  const parsed = v.safeParse(PagingQuerySchema, query);
  if (!parsed.success) throw badRequest("Invalid paging parameters.", issuesToFieldErrors(parsed.issues));
  return { page: parsed.output.CurrentPage, pageSize: parsed.output.PageSize };
}

export function toNotificationProblem(error: unknown): unknown {
  if (error instanceof SubscriptionNotFoundError) return notFound(error.message);
  if (error instanceof SubscriptionLimitError) return new ProblemError(409, "limit-exceeded", error.message);
  if (error instanceof UnusableReferenceError)
    return unprocessable(error.message, [{ field: error.field, message: error.reason }]);
  if (error instanceof DeliveryInProgressError)
    return new ProblemError(409, "delivery-in-progress", error.message);
  return error;
}

/** Runs a use case and turns its refusals into problems. */
export async function mappedNotification<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toNotificationProblem(error);
  }
}
