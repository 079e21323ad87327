/**
 * Shared by the route-map handlers: the caller's identity narrowed to its role, the `{awb}` path
 * parameter, and the mapping of use-case refusals to problem+json (DESIGN.md section 6).
 */
import { formatAwb, parseAwb } from "../../core/awb.ts";
import type { AwbId } from "../../core/carrier-messages/types.ts";
import {
  ForeignAwbError,
  IngestInterruptedError,
  JsonEventValidationError,
  MessageParseError,
  RouteMapNotFoundError,
  SearchTooBroadError,
  TriggerRefusedError,
  UnsupportedContentTypeError,
  WriteConflictError,
  WriteTooLargeError,
} from "../../core/errors.ts";
import type { CarrierIdentity, ForwarderIdentity, Identity } from "../../core/identity.ts";
import type { AppliedMessage } from "../../core/use-cases/ingest-carrier-message.ts";
import { badRequest, conflict, forbidden, notFound, ProblemError, unprocessable } from "./problem.ts";

/** The route table lets only forwarders in; this narrows the type (and guards a mis-wired route). */
export function asForwarder(identity: Identity): ForwarderIdentity {
  if (identity.role !== "forwarder") throw forbidden("Only forwarders may call this operation.");
  return identity;
}

export function asCarrier(identity: Identity): CarrierIdentity {
  if (identity.role !== "carrier") throw forbidden("Only carriers may report carrier messages.");
  return identity;
}

/** `{awb}`: 11 digits or ppp-nnnnnnnn with a valid check digit, else 400 naming what is wrong. */
export function awbFromPath(value: string | undefined): AwbId {
  const parsed = parseAwb(value ?? "");
  if (parsed.ok) return parsed.awb;
  if (parsed.reason === "check-digit") {
    throw badRequest(`AWB ${value}: the check digit must be ${parsed.expectedDigit}.`, [
      { field: "awb", message: `check digit must be ${parsed.expectedDigit} (the first seven digits mod 7)` },
    ]);
  }
  throw badRequest("The AWB must be 11 digits or ppp-nnnnnnnn.", [
    { field: "awb", message: "must be 11 digits or ppp-nnnnnnnn" },
  ]);
}

/** What POST /carrier/messages applied: the success body's `Applied`, and the same member of its errors. */
export function appliedBody(applied: readonly AppliedMessage[]) {
  return applied.map((a) => ({ AwbNumber: formatAwb(a.awb), Changed: a.changed, Events: a.events }));
}

/**
 * A body stored only in part: the status of what stopped it (409 lost races, 422 a change too large
 * to store, else 500) with `Applied` listing the messages that were stored, so the carrier resends
 * only the rest.
 */
function interrupted(error: IngestInterruptedError): ProblemError {
  const { cause } = error;
  const [status, slug] =
    cause instanceof WriteConflictError
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
    {},
    { Applied: appliedBody(error.applied) },
  );
}

/** Use-case refusals as problem+json; anything else is rethrown unchanged (500, logged by the kit). */
export function toProblem(error: unknown): unknown {
  if (error instanceof IngestInterruptedError) return interrupted(error);
  if (error instanceof JsonEventValidationError) {
    return badRequest(
      `Line ${error.line}: expected ${error.expected}. Nothing was stored.`,
      error.errors.map((e) => ({ field: `line ${error.line}: ${e.field}`, message: e.message })),
    );
  }
  if (error instanceof MessageParseError) {
    // XFSU and JSON problems also name the element or field: "line 27: MasterConsignment/OriginLocation/ID".
    const field = error.path === null ? `line ${error.line}` : `line ${error.line}: ${error.path}`;
    const message = `expected ${error.expected}, found "${error.found}"`;
    return new ProblemError(
      400,
      "invalid-carrier-message",
      `${field.charAt(0).toUpperCase()}${field.slice(1)}: ${message}. Nothing was stored.`,
      [{ field, message }],
    );
  }
  if (error instanceof UnsupportedContentTypeError)
    return new ProblemError(415, "unsupported-media-type", error.message);
  if (error instanceof ForeignAwbError) return forbidden(error.message);
  if (error instanceof RouteMapNotFoundError) return notFound(error.message);
  if (error instanceof TriggerRefusedError) {
    // The slug names the failed condition so clients can switch on it.
    const [status, field] =
      error.kind === "carrier-not-participating"
        ? [422, "AirlinePrefix"]
        : error.kind === "agent-mismatch"
          ? [403, "AgentCode"]
          : [403, "AwbNumber"];
    return new ProblemError(status, error.kind, error.message, [{ field, message: error.message }]);
  }
  if (error instanceof SearchTooBroadError) return unprocessable(error.message);
  if (error instanceof WriteConflictError) return conflict(error.message);
  return error;
}

/** Runs a use case and turns its refusals into problems. */
export async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toProblem(error);
  }
}
