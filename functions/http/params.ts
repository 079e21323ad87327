/**
 * Path parameter parsers: each takes the raw (URI-decoded) segment and returns the typed value, or
 * throws a 400 problem naming the parameter. Routes declare them (`httpRoute(id, { params: { awb:
 * awbFromPath } })`) and the request-params middleware runs them before the handler.
 */
import { parseAwb } from "../core/awb.ts";
import type { AwbId } from "../core/carrier-messages/types.ts";
import { CONFIRMATION_TOKEN_PATTERN, GUID_PATTERN } from "../core/notifications/index.ts";
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

/** `{deliveryId}`: taken as it is; an unknown one is the use case's 404. */
export const deliveryIdFromPath = (value: string | undefined): string => value ?? "";
