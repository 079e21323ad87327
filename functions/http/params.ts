/**
 * Path parameter parsers: each takes the URI-decoded segment and returns the typed value, or throws a
 * 400 problem naming the parameter (a segment that does not decode is refused before its parser: 400
 * naming it, or what the parser's `malformed` says). Routes declare them (`httpRoute(id, { params: { awb:
 * awbFromPath } })`) and the request-params middleware runs them before the handler.
 */
import { parseAwb } from "../core/awb.ts";
import type { AwbId } from "../core/carrier-messages/types.ts";
import { ShareLinkNotFoundError } from "../core/errors.ts";
import { CONFIRMATION_TOKEN_PATTERN, GUID_PATTERN } from "../core/notifications/index.ts";
import { SHARE_TOKEN_PATTERN } from "../core/route-map/share-links.ts";
import { badRequest } from "./problems.ts";

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

/** `{id}` of a rule or webhook: a positive integer, else 400 naming `id`. */
export function idFromPath(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value)) {
    throw badRequest("The id must be a positive integer.", [
      { field: "id", message: "must be a positive integer" },
    ]);
  }
  return Number(value);
}

/** `{prefix}` of a carrier: 3 digits, else 400 naming `prefix`. */
export function prefixFromPath(value: string | undefined): string {
  if (value === undefined || !/^\d{3}$/.test(value)) {
    throw badRequest("The carrier prefix must be 3 digits.", [
      { field: "prefix", message: "must be 3 digits" },
    ]);
  }
  return value;
}

/** `{id}` of a customer endpoint: a GUID (any case), else 400 naming `id`. */
export function guidFromPath(value: string | undefined): string {
  if (value === undefined || !GUID_PATTERN.test(value)) {
    throw badRequest("The id must be a GUID.", [{ field: "id", message: "must be a GUID" }]);
  }
  return value.toLowerCase();
}

/** `{token}` of an e-mail confirmation link: base64url, 22 to 128 characters, else 400 naming `token`. */
export function confirmationTokenFromPath(value: string | undefined): string {
  if (value === undefined || !CONFIRMATION_TOKEN_PATTERN.test(value)) {
    throw badRequest("The confirmation token is malformed.", [
      { field: "token", message: "must be the token of a confirmation link" },
    ]);
  }
  return value;
}

/**
 * `{token}` of a route-map share link: anything but 43 base64url characters is refused before any
 * lookup, with the same 404 as an unknown, revoked or expired link (a public route: no hint either way).
 */
export function shareTokenFromPath(value: string | undefined): string {
  if (value === undefined || !SHARE_TOKEN_PATTERN.test(value)) throw new ShareLinkNotFoundError();
  return value;
}
/** Not even valid percent-encoding: the same 404, not the 400 other parameters get. */
shareTokenFromPath.malformed = (): Error => new ShareLinkNotFoundError();

/** `{deliveryId}`: taken as it is; an unknown one is the use case's 404. */
export const deliveryIdFromPath = (value: string | undefined): string => value ?? "";

/**
 * A forwarder id in a path: 1-64 of letters, digits, `_`, `.` and `-`. Wider than what onboarding takes
 * now (`^[A-Z]{9}$`, core/tenants/tenants.ts), so tenants onboarded before stay manageable.
 */
export const FORWARDER_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** A machine client's id: Cognito app client ids (26 lowercase letters and digits) fit `[\w+]{1,128}`. */
export const CLIENT_ID_PATTERN = /^[\w+]{1,128}$/;

/** `{id}` of a forwarder (its ForwarderIdentifier): 1-64 of letters, digits, `_`, `.`, `-`, else 400. */
export function forwarderIdFromPath(value: string | undefined): string {
  if (value === undefined || !FORWARDER_ID_PATTERN.test(value)) {
    throw badRequest("The forwarder id must be 1-64 letters, digits, '_', '.' or '-'.", [
      { field: "id", message: "must be 1-64 letters, digits, '_', '.' or '-'" },
    ]);
  }
  return value;
}

/** `{userId}` of a person signing in for a forwarder (Cognito's sub, a UUID locally). */
export const USER_ID_PATTERN = /^[A-Za-z0-9-]{1,128}$/;

export function userIdFromPath(value: string | undefined): string {
  if (value === undefined || !USER_ID_PATTERN.test(value)) {
    throw badRequest("The user id is malformed.", [
      { field: "userId", message: "must be 1-128 letters, digits or '-'" },
    ]);
  }
  return value;
}

/** `{id}` of a status request: `SR-<13 digits>-<11 digits>`, else 400 naming `id`. */
export function statusRequestIdFromPath(value: string | undefined): string {
  if (value === undefined || !/^SR-\d{13}-\d{11}$/.test(value)) {
    throw badRequest("The status request id is malformed.", [
      { field: "id", message: "must be SR-<13 digits>-<11 digits>" },
    ]);
  }
  return value;
}

/** `{id}` of a receipt (a raw message): `<yyyymmddThhmmssZ>-<10 hex>`, else 400 naming `id`. */
export function receiptIdFromPath(value: string | undefined): string {
  if (value === undefined || !/^\d{8}T\d{6}Z-[0-9a-f]{10}$/.test(value)) {
    throw badRequest("The receipt id is malformed.", [
      { field: "id", message: "must be <yyyymmddThhmmssZ>-<10 hex digits>, as a history's ReceiptId" },
    ]);
  }
  return value;
}

/** `{clientId}` of a tenant's machine client: 1-128 of letters, digits, `_` and `+`, else 400. */
export function clientIdFromPath(value: string | undefined): string {
  if (value === undefined || !CLIENT_ID_PATTERN.test(value)) {
    throw badRequest("The client id is malformed.", [
      { field: "clientId", message: "must be 1-128 letters, digits, '_' or '+'" },
    ]);
  }
  return value;
}

/** `{code}` of a station: 3 capital letters (IATA), else 400 naming `code`. */
export function stationCodeFromPath(value: string | undefined): string {
  if (value === undefined || !/^[A-Z]{3}$/.test(value)) {
    throw badRequest("The station code must be 3 capital letters (IATA).", [
      { field: "code", message: "must be 3 capital letters" },
    ]);
  }
  return value;
}
