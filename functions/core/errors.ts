/**
 * Every refusal and failure the core raises, in one place. The core cannot speak HTTP: the HTTP
 * error middleware maps these to problem+json through one table. Every refusal is raised before
 * anything is written, so a refusal changes nothing (DESIGN.md section 6).
 */

import type { AppliedMessage, AwbId, FieldError, StationTime } from "./types.ts";

/** Shortens what we echo back in an error so that a huge line does not end up in a 400 body. */
export function truncateFound(value: string, max = 40): string {
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

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

/** Optimistic concurrency kept losing (extreme contention on one AWB): the caller may retry (409). */
export class WriteConflictError extends Error {
  constructor(readonly awb: AwbId) {
    super(`AWB ${awb.prefix}-${awb.serial} is being changed concurrently; retry the request.`);
    this.name = "WriteConflictError";
  }
}

/**
 * The request's time ran out before this message could be stored (nothing of it was written): the
 * answer comes before the Lambda deadline with what was stored, and the caller resends the rest (409).
 */
export class DeadlineReachedError extends Error {
  constructor(
    readonly awb: AwbId,
    /** What was not done, when it is not a carrier message (a sendsme): the default names a message. */
    message = `time ran out before the message for AWB ${awb.prefix}-${awb.serial} could be stored (concurrent changes of the AWB, or a long body); resend it`,
  ) {
    super(message);
    this.name = "DeadlineReachedError";
  }
}

export class CheckNotDueError extends Error {}

/** The station code is not in the airport dataset: the caller answers 400 naming it. */
export class UnknownStationError extends Error {
  constructor(readonly station: string) {
    super(`unknown station "${station}": not an IATA airport code with a known time zone`);
    this.name = "UnknownStationError";
  }
}

/** A station time the calendar does not have (31 APR, 25:00): the message is wrong, answer 400. */
export class InvalidStationTimeError extends Error {
  constructor(
    readonly station: string,
    readonly time: StationTime,
  ) {
    super(
      `invalid local time at ${station}: day ${time.day} month ${time.month} ${time.hour}:${time.minute}`,
    );
    this.name = "InvalidStationTimeError";
  }
}

/** The report is for another AWB than the state: a caller bug, not a carrier error. */
export class ShipmentMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShipmentMismatchError";
  }
}

/** The request's content type is not one we parse: answered 415. */
export class UnsupportedContentTypeError extends Error {
  constructor(readonly contentType: string) {
    super(
      `unsupported content type "${truncateFound(contentType)}": use text/plain (Cargo-IMP), application/xml (XFSU), application/json or application/ld+json (ONE Record)`,
    );
    this.name = "UnsupportedContentTypeError";
  }
}

/** A message that could not be parsed: answered 400 naming the line and what was expected. */
export class MessageParseError extends Error {
  constructor(
    /** 1-based line number in the request body. */
    readonly line: number,
    /** What the parser expected there, in words a carrier's support desk understands. */
    readonly expected: string,
    /** What it found (truncated). */
    readonly found: string,
    /** XFSU element path or JSON field path of the problem, when the line alone does not say it. */
    readonly path: string | null = null,
  ) {
    super(`line ${line}${path === null ? "" : ` (${path})`}: expected ${expected}, found "${found}"`);
    this.name = "MessageParseError";
  }
}

/**
 * A well-formed message the service cannot place (a station with no known time zone, a date the
 * calendar does not have): answered 422 naming the line, like a parse error otherwise.
 */
export class UnplaceableMessageError extends MessageParseError {
  constructor(line: number, expected: string, found: string, path: string | null = null) {
    super(line, expected, found, path);
    this.name = "UnplaceableMessageError";
  }
}

/**
 * The JSON body did not validate. It is a MessageParseError (line of the first problem when the
 * raw text is known, else 1) and carries every problem as { field, message } for problem+json.
 */
export class JsonEventValidationError extends MessageParseError {
  constructor(
    readonly errors: FieldError[],
    line: number,
    found: string,
  ) {
    const first = errors[0];
    super(
      line,
      first === undefined ? "a valid JSON carrier message" : `${first.field}: ${first.message}`,
      found,
    );
    this.name = "JsonEventValidationError";
  }
}

/**
 * Storing the body stopped at message `failedMessage` (1-based): the messages before it were applied
 * and stay so (`applied`), the rest were not. `cause` is the failure (WriteConflictError after the
 * retry budget, WriteTooLargeError, or anything the store threw).
 */
export class IngestInterruptedError extends Error {
  constructor(
    readonly applied: readonly AppliedMessage[],
    readonly failedMessage: number,
    readonly total: number,
    override readonly cause: unknown,
  ) {
    super(
      `Message ${failedMessage} of ${total} could not be stored: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
    );
    this.name = "IngestInterruptedError";
  }
}

// Refusals of the subscription use cases (rules, webhooks, deliveries, customer endpoints).

/** Unknown, or another forwarder's: the same answer, so existence never leaks (404). */
export class SubscriptionNotFoundError extends Error {
  constructor(
    readonly kind: "rule" | "webhook" | "delivery" | "customer endpoint",
    readonly id: string,
  ) {
    super(`No ${kind} ${id}, or it is not yours.`);
    this.name = "SubscriptionNotFoundError";
  }
}

/** A rule identical to one the forwarder already has: 409 naming that rule. */
export class DuplicateRuleError extends Error {
  constructor(readonly existingId: number) {
    super(
      `Rule ${existingId} already sends exactly this (same NotifyTo, events and filters); change or enable that one.`,
    );
    this.name = "DuplicateRuleError";
  }
}

/** An e-mail confirmation link that is unknown, used, replaced by a newer one or expired (404). */
export class ConfirmationLinkError extends Error {
  constructor(readonly reason: "unknown" | "expired") {
    super(
      reason === "expired"
        ? "This confirmation link has expired; a new one is mailed when a rule naming the address is saved."
        : "This confirmation link is unknown, already used or replaced by a newer one.",
    );
    this.name = "ConfirmationLinkError";
  }
}

/**
 * A route-map share link that is unknown, malformed, revoked, expired or another forwarder's: one
 * answer for all (404), so a link's existence or history never leaks.
 */
export class ShareLinkNotFoundError extends Error {
  constructor() {
    super("No such share link, or it has expired or been revoked.");
    this.name = "ShareLinkNotFoundError";
  }
}

/**
 * A share link over a limit (nothing stored): the owner's active links on the AWB (409: revoke one or
 * wait for one to expire), or the links it made today, UTC (429 until the next day begins).
 */
export class ShareLinkLimitError extends Error {
  constructor(
    readonly kind: "active-per-awb" | "per-day",
    readonly limit: number,
    readonly awb: AwbId,
    /** Seconds until the limit frees up, when known (the next UTC day for the daily limit). */
    readonly retryAfterSeconds: number | null,
  ) {
    super(
      kind === "active-per-awb"
        ? `You already have ${limit} active share links for AWB ${awb.prefix}-${awb.serial}, the maximum per AWB; revoke one (DELETE its share/{Id}) or wait until one expires.`
        : `You have made ${limit} share links today (UTC), the maximum per day; more can be made in ${retryAfterSeconds ?? 0} seconds, when the next UTC day begins.`,
    );
    this.name = "ShareLinkLimitError";
  }
}

/** A customer endpoint still named by enabled Url rules cannot be deleted without `?force=true` (409). */
export class EndpointInUseError extends Error {
  constructor(
    readonly endpointId: string,
    readonly ruleIds: readonly number[],
  ) {
    super(
      `Customer endpoint ${endpointId} is used by enabled rule(s) ${ruleIds.join(", ")}: disable them first, or delete with ?force=true to disable them.`,
    );
    this.name = "EndpointInUseError";
  }
}

/** The forwarder already has the maximum number of rules or webhooks (409). */
export class SubscriptionLimitError extends Error {
  constructor(
    readonly kind: "rule" | "webhook",
    readonly limit: number,
  ) {
    super(
      `You already have ${limit} ${kind === "rule" ? "notification rules" : "webhooks"}, the maximum; delete one first.`,
    );
    this.name = "SubscriptionLimitError";
  }
}

/**
 * A well-formed request naming something unusable (422): a NotifyTo GUID support did not register for
 * this forwarder, or a Url the service may never call (scheme, address class).
 */
export class UnusableReferenceError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field} ${reason}.`);
    this.name = "UnusableReferenceError";
  }
}

/**
 * A well-formed body whose values only the stored state can judge (400 naming each field): a masked
 * secret that is not the stored one's mask, or a secret not sent again when the Url changes.
 */
export class InvalidFieldsError extends Error {
  constructor(readonly errors: ReadonlyArray<{ field: string; message: string }>) {
    super(`Invalid ${errors.map((error) => error.field).join(", ")}.`);
    this.name = "InvalidFieldsError";
  }
}

/** A delivery that is still being attempted cannot be replayed (409). */
export class DeliveryInProgressError extends Error {
  constructor(readonly deliveryId: string) {
    super(`Delivery ${deliveryId} is still being attempted; replay it once it is delivered or parked.`);
    this.name = "DeliveryInProgressError";
  }
}

/**
 * What `RouteMapRepository.write` throws when the store cannot take the change at all (too many
 * items for one transaction, an item over the size limit): retrying cannot help.
 */
export class WriteTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WriteTooLargeError";
  }
}

/** No settings stored for this carrier prefix (404). */
export class CarrierNotFoundError extends Error {
  constructor(readonly prefix: string) {
    super(`No settings for carrier ${prefix}.`);
    this.name = "CarrierNotFoundError";
  }
}

// Refusals of the tenant onboarding use cases (support).

/** A tenant of this kind and id is already onboarded (409). */
export class TenantExistsError extends Error {
  constructor(
    readonly kind: "forwarder" | "carrier" | "support",
    readonly id: string,
  ) {
    super(`The ${kind} ${id} is already onboarded.`);
    this.name = "TenantExistsError";
  }
}

/** No tenant of this kind and id (404). */
export class TenantNotFoundError extends Error {
  constructor(
    readonly kind: "forwarder" | "carrier" | "support",
    readonly id: string,
  ) {
    super(`No ${kind} ${id} is onboarded.`);
    this.name = "TenantNotFoundError";
  }
}

/** Unknown client, or a client of another tenant: the same answer (404). */
export class TenantClientNotFoundError extends Error {
  constructor(readonly clientId: string) {
    super(`No client ${clientId} under this tenant.`);
    this.name = "TenantClientNotFoundError";
  }
}

// Refusals of tokens and of people signing in for forwarders.

/**
 * Cognito's pre-token-generation trigger refuses a token (the token request fails): unknown or
 * disabled client, deleted or disabled tenant, or a user linked to no forwarder.
 */
export class TokenRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`Token refused: ${reason}.`);
    this.name = "TokenRefusedError";
  }
}

/** A user with this e-mail already signs in (409). */
export class ForwarderUserExistsError extends Error {
  constructor(readonly email: string) {
    super(`A user with e-mail ${email} already exists.`);
    this.name = "ForwarderUserExistsError";
  }
}

/** Unknown user, or a user of another forwarder: the same answer (404). */
export class ForwarderUserNotFoundError extends Error {
  constructor(readonly userId: string) {
    super(`No user ${userId} under this forwarder.`);
    this.name = "ForwarderUserNotFoundError";
  }
}

// Refusals of carrier connectivity.

/** An InboundSenders address another carrier already registered: each belongs to one carrier (409). */
export class InboundSenderTakenError extends Error {
  constructor(
    readonly address: string,
    readonly ownerPrefix: string,
  ) {
    super(`${address} is already an inbound sender of carrier ${ownerPrefix}; remove it there first.`);
    this.name = "InboundSenderTakenError";
  }
}

/** A ONE Record notification from a carrier whose ONE Record server is not configured (422). */
export class OneRecordNotConfiguredError extends Error {
  constructor(readonly carrierPrefix: string) {
    super(
      `Carrier ${carrierPrefix} has no ONE Record server configured (OneRecord.ServerUrl on PUT /support/carriers/${carrierPrefix}): nothing can be fetched.`,
    );
    this.name = "OneRecordNotConfiguredError";
  }
}

/**
 * The carrier's ONE Record server could not give an announced document (down, too slow, or an error
 * answer): 503 (unreachable, 5xx) or 502 (any other answer) with Retry-After, so it sends the
 * notification again. Nothing was stored.
 */
export class PublisherUnavailableError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    /** The publisher's HTTP status when it answered; null when it did not. */
    readonly publisherStatus: number | null,
  ) {
    super(
      `The carrier's ONE Record server did not deliver ${url} (${reason}). Nothing was stored; send the notification again later.`,
    );
    this.name = "PublisherUnavailableError";
  }
}

/** A LogisticsEvent fetched from the carrier's ONE Record server that cannot be used (422 naming IRI, line, path). */
export class UnusableLogisticsEventError extends Error {
  constructor(
    readonly url: string,
    readonly problem: MessageParseError,
  ) {
    super(`The LogisticsEvent document at ${url} cannot be used: ${problem.message}. Nothing was stored.`);
    this.name = "UnusableLogisticsEventError";
  }
}

/** No such status request for this carrier (another carrier's answers the same): 404. */
/** No raw message kept under this receipt for the carrier (never kept, another carrier's, or expired). */
export class RawMessageNotFoundError extends Error {
  constructor(
    readonly carrierPrefix: string,
    readonly receiptId: string,
  ) {
    super(`No message ${receiptId} of carrier ${carrierPrefix} is kept (raw messages are kept 30 days).`);
    this.name = "RawMessageNotFoundError";
  }
}

export class StatusRequestNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`No status request ${id} for you.`);
    this.name = "StatusRequestNotFoundError";
  }
}
