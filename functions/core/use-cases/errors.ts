/**
 * Refusals of the route-map use cases. The core cannot speak HTTP: handlers map these to
 * problem+json (functions/handlers/http/route-map-problems.ts). Every one is raised before anything
 * is written, so a refusal changes nothing (DESIGN.md section 6).
 */
import type { AwbId } from "../carrier-messages/types.ts";

/** Unknown, or not readable by the caller: the same answer, so existence never leaks (404). */
export class RouteMapNotFoundError extends Error {
  constructor(readonly awb: AwbId) {
    super(`No route map for AWB ${awb.prefix}-${awb.serial}, or it is not yours.`);
    this.name = "RouteMapNotFoundError";
  }
}

/** A carrier reported AWBs of another carrier (403). */
export class ForeignAwbError extends Error {
  constructor(
    readonly carrierPrefix: string,
    readonly awbs: readonly AwbId[],
  ) {
    super(
      `Carrier ${carrierPrefix} may only report its own AWBs; this body names ${awbs
        .map((a) => `${a.prefix}-${a.serial}`)
        .join(", ")}. Nothing was stored.`,
    );
    this.name = "ForeignAwbError";
  }
}

/** sendsme refused; `kind` says which condition failed. */
export class TriggerRefusedError extends Error {
  constructor(
    readonly kind: "agent-mismatch" | "not-owner" | "carrier-not-participating",
    message: string,
  ) {
    super(message);
    this.name = "TriggerRefusedError";
  }
}

/** Search too broad to answer from the index in one request: narrow the CreationDate range (422). */
export class SearchTooBroadError extends Error {
  constructor(readonly limit: number) {
    super(
      `More than ${limit} route maps match; narrow the search (for example a shorter CreationDate range).`,
    );
    this.name = "SearchTooBroadError";
  }
}

/** Optimistic concurrency kept losing (extreme contention on one AWB): the caller may retry (409). */
export class WriteConflictError extends Error {
  constructor(readonly awb: AwbId) {
    super(`AWB ${awb.prefix}-${awb.serial} is being changed concurrently; retry the request.`);
    this.name = "WriteConflictError";
  }
}
