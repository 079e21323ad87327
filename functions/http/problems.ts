/**
 * problem+json (RFC 9457) for every non-2xx answer (DESIGN.md section 6), and THE one table that maps
 * the core's typed errors to it. The problem-responses middleware (registered last) sends every error
 * through `toProblem`: a ProblemError passes as is, a domain error becomes its row's problem, and
 * anything else stays as it is (answered 500 and logged by the middleware).
 */
import * as v from "valibot";
import { formatAwb } from "../core/awb.ts";
import {
  CarrierNotFoundError,
  ConfirmationLinkError,
  DeadlineReachedError,
  DeliveryInProgressError,
  DuplicateRuleError,
  EndpointInUseError,
  ForeignAwbError,
  ForwarderUserExistsError,
  ForwarderUserNotFoundError,
  InboundSenderTakenError,
  IngestInterruptedError,
  InvalidFieldsError,
  JsonEventValidationError,
  MessageParseError,
  OneRecordNotConfiguredError,
  PublisherUnavailableError,
  RawMessageNotFoundError,
  RouteMapNotFoundError,
  ShareLinkLimitError,
  ShareLinkNotFoundError,
  StatusRequestNotFoundError,
  SubscriptionLimitError,
  SubscriptionNotFoundError,
  TenantClientNotFoundError,
  TenantExistsError,
  TenantNotFoundError,
  TriggerRefusedError,
  UnplaceableMessageError,
  UnsupportedContentTypeError,
  UnusableLogisticsEventError,
  UnusableReferenceError,
  WriteConflictError,
  WriteTooLargeError,
} from "../core/errors.ts";
import type { AppliedMessage } from "../core/types.ts";

export interface FieldError {
  field: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors: FieldError[];
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/**
 * A 4xx/5xx the caller should see as is. `type` is a stable slug clients can switch on. `extensions`
 * are RFC 9457 extension members added to the body (e.g. `Applied` after a partly stored request).
 */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    readonly extensions: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
    this.name = "ProblemError";
  }

  toBody(): ProblemBody & Record<string, unknown> {
    // The standard members win over an extension of the same name.
    return { ...this.extensions, ...problemBody(this.status, this.slug, this.detail, this.errors) };
  }
}

export function problemBody(
  status: number,
  slug: string,
  detail: string,
  errors: FieldError[] = [],
): ProblemBody {
  return {
    type: `https://route-map-tracker.dev/problems/${slug}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    errors,
  };
}

export const badRequest = (detail: string, errors: FieldError[] = []) =>
  new ProblemError(400, "bad-request", detail, errors);
export const notFound = (detail = "No such resource, or it is not yours.") =>
  new ProblemError(404, "not-found", detail);
export const forbidden = (detail: string) => new ProblemError(403, "forbidden", detail);
export const conflict = (detail: string) => new ProblemError(409, "conflict", detail);
export const unprocessable = (detail: string, errors: FieldError[] = []) =>
  new ProblemError(422, "unprocessable", detail, errors);

/** valibot issues as problem `errors` (dot path of the field, or "(body)" for the whole body). */
export function issuesToFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    field: v.getDotPath(issue) ?? "(body)",
    message: issue.message,
  }));
}

/** What POST /carrier/messages applied: the success body's `Applied`, and the same member of its errors. */
export function appliedBody(applied: readonly AppliedMessage[]) {
  return applied.map((a) => ({ AwbNumber: formatAwb(a.awb), Changed: a.changed, Events: a.events }));
}

/** Seconds a carrier waits before resending messages that lost to concurrent writers of their AWB. */
export const CONFLICT_RETRY_AFTER_SECONDS = 1;

/**
 * A body stored only in part: the status of what stopped it (409 lost races or the request's deadline,
 * with Retry-After; 422 a change too large to store; else 500) with `Applied` listing the messages
 * that were stored, so the carrier resends only the rest.
 */
function interrupted(error: IngestInterruptedError): ProblemError {
  const { cause } = error;
  const [status, slug] =
    cause instanceof WriteConflictError || cause instanceof DeadlineReachedError
      ? [409, "conflict"]
      : cause instanceof WriteTooLargeError
        ? [422, "too-large-to-store"]
        : [500, "partly-applied"];
  const reason =
    status === 500 ? "an unexpected error" : cause instanceof Error ? cause.message : String(cause);
  const stored =
    error.applied.length === 0
      ? "Nothing was stored"
      : `Messages 1-${error.applied.length} were applied (see Applied)`;
  return new ProblemError(
    status,
    slug,
    `Message ${error.failedMessage} of ${error.total} could not be stored (${reason}). ${stored}; resend from message ${error.failedMessage}.`,
    [{ field: `message ${error.failedMessage}`, message: reason }],
    status === 409 ? { "retry-after": String(CONFLICT_RETRY_AFTER_SECONDS) } : {},
    { Applied: appliedBody(error.applied) },
  );
}

function carrierMessageProblem(error: MessageParseError): ProblemError {
  // XFSU and JSON problems also name the element or field: "line 27: MasterConsignment/OriginLocation/ID".
  const field = error.path === null ? `line ${error.line}` : `line ${error.line}: ${error.path}`;
  const message = `expected ${error.expected}, found "${error.found}"`;
  // Well-formed but not placeable (unknown station, a date that does not exist): 422, else 400.
  const [status, type] =
    error instanceof UnplaceableMessageError
      ? [422, "unplaceable-carrier-message"]
      : [400, "invalid-carrier-message"];
  return new ProblemError(
    status,
    type,
    `${field.charAt(0).toUpperCase()}${field.slice(1)}: ${message}. Nothing was stored.`,
    [{ field, message }],
  );
}

/** Seconds a ONE Record publisher is asked to wait before sending a notification again. */
export const PUBLISHER_RETRY_AFTER_SECONDS = 60;

/** 503 when the publisher did not answer or answered 5xx, 502 for any other answer; Retry-After either way. */
function publisherProblem(error: PublisherUnavailableError): ProblemError {
  const down = error.publisherStatus === null || error.publisherStatus >= 500;
  return new ProblemError(
    down ? 503 : 502,
    down ? "publisher-unavailable" : "publisher-error",
    error.message,
    [{ field: error.url, message: error.reason }],
    { "retry-after": String(PUBLISHER_RETRY_AFTER_SECONDS) },
  );
}

function triggerProblem(error: TriggerRefusedError): ProblemError {
  // The slug names the failed condition so clients can switch on it.
  const [status, field] =
    error.kind === "carrier-not-participating"
      ? [422, "AirlinePrefix"]
      : error.kind === "agent-mismatch"
        ? [403, "AgentCode"]
        : [403, "AwbNumber"];
  return new ProblemError(status, error.kind, error.message, [{ field, message: error.message }]);
}

// biome-ignore lint/suspicious/noExplicitAny: any constructor of an error class the core raises.
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;
type Row = readonly [ErrorClass<Error>, (error: never) => ProblemError];
const row = <E extends Error>(type: ErrorClass<E>, toProblem: (error: E) => ProblemError): Row => [
  type,
  toProblem,
];

/**
 * THE table: each error class the core raises and the problem a caller sees. The first row whose
 * class matches wins, so a subclass comes before its base (JsonEventValidationError before
 * MessageParseError).
 */
const PROBLEMS: readonly Row[] = [
  // ---- ONE Record notifications: what the publisher could not deliver, or we cannot use
  row(PublisherUnavailableError, publisherProblem),
  row(UnusableLogisticsEventError, (error) => {
    const where =
      error.problem.path === null
        ? `line ${error.problem.line}`
        : `line ${error.problem.line}: ${error.problem.path}`;
    const message = `expected ${error.problem.expected}, found "${error.problem.found}"`;
    return unprocessable(error.message, [{ field: `${error.url} ${where}`, message }]);
  }),
  row(
    OneRecordNotConfiguredError,
    (error) => new ProblemError(422, "onerecord-not-configured", error.message),
  ),
  // ---- route maps and carrier messages
  row(IngestInterruptedError, interrupted),
  row(JsonEventValidationError, (error) =>
    badRequest(
      `Line ${error.line}: expected ${error.expected}. Nothing was stored.`,
      error.errors.map((e) => ({ field: `line ${error.line}: ${e.field}`, message: e.message })),
    ),
  ),
  row(MessageParseError, carrierMessageProblem),
  row(UnsupportedContentTypeError, (error) => new ProblemError(415, "unsupported-media-type", error.message)),
  row(ForeignAwbError, (error) => forbidden(error.message)),
  row(RouteMapNotFoundError, (error) => notFound(error.message)),
  row(TriggerRefusedError, triggerProblem),
  // Lost to concurrent writers, or out of time before the answer was due: nothing of this request
  // was stored, and the same request again will do (Retry-After).
  row(
    WriteConflictError,
    (error) =>
      new ProblemError(409, "conflict", error.message, [], {
        "retry-after": String(CONFLICT_RETRY_AFTER_SECONDS),
      }),
  ),
  row(
    DeadlineReachedError,
    (error) =>
      new ProblemError(409, "conflict", error.message, [], {
        "retry-after": String(CONFLICT_RETRY_AFTER_SECONDS),
      }),
  ),
  // ---- carriers (support)
  row(CarrierNotFoundError, (error) => notFound(error.message)),
  row(StatusRequestNotFoundError, (error) => notFound(error.message)),
  row(RawMessageNotFoundError, (error) => notFound(error.message)),
  // ---- notification rules, webhooks, deliveries, customer endpoints
  row(SubscriptionNotFoundError, (error) => notFound(error.message)),
  row(SubscriptionLimitError, (error) => new ProblemError(409, "limit-exceeded", error.message)),
  row(EndpointInUseError, (error) => new ProblemError(409, "endpoint-in-use", error.message)),
  row(DuplicateRuleError, (error) => new ProblemError(409, "duplicate-rule", error.message)),
  row(ConfirmationLinkError, (error) => notFound(error.message)),
  row(ShareLinkNotFoundError, (error) => notFound(error.message)),
  row(ShareLinkLimitError, (error) =>
    error.kind === "active-per-awb"
      ? new ProblemError(409, "share-link-limit", error.message, [
          { field: "awb", message: `at most ${error.limit} active share links per AWB` },
        ])
      : new ProblemError(
          429,
          "share-link-limit",
          error.message,
          [{ field: "(body)", message: `at most ${error.limit} share links per day` }],
          { "retry-after": String(error.retryAfterSeconds ?? 1) },
        ),
  ),
  row(UnusableReferenceError, (error) =>
    unprocessable(error.message, [{ field: error.field, message: error.reason }]),
  ),
  row(DeliveryInProgressError, (error) => new ProblemError(409, "delivery-in-progress", error.message)),
  row(InvalidFieldsError, (error) => new ProblemError(400, "validation", error.message, [...error.errors])),
  // ---- tenants and their machine clients (support)
  row(TenantExistsError, (error) => new ProblemError(409, "tenant-exists", error.message)),
  row(TenantNotFoundError, (error) => notFound(error.message)),
  row(TenantClientNotFoundError, (error) => notFound(error.message)),
  row(ForwarderUserExistsError, (error) => new ProblemError(409, "user-exists", error.message)),
  row(ForwarderUserNotFoundError, (error) => notFound(error.message)),
  // ---- carrier connectivity
  row(
    InboundSenderTakenError,
    (error) =>
      new ProblemError(409, "inbound-sender-taken", error.message, [
        { field: "InboundSenders", message: error.message },
      ]),
  ),
];

/** A domain error as its problem; a ProblemError or an unexpected error is returned unchanged. */
export function toProblem(error: unknown): unknown {
  if (error instanceof ProblemError) return error;
  for (const [type, problem] of PROBLEMS) {
    if (error instanceof type) return (problem as (error: Error) => ProblemError)(error);
  }
  return error;
}
