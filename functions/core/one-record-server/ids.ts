/**
 * Logistics-object ids: stable, and resolvable without a lookup table. A Waybill, its Shipment and
 * each TransportMovement of its route get an RFC 9562 version-8 UUID (the custom layout) that carries
 * the AWB and the object's kind, so the same AWB always gives the same ids and a GET finds the route
 * map from the id alone. A Location's id is its IATA airport code (as the good practice writes it).
 *
 * Layout (32 hex digits): AWB prefix and serial (11 decimal digits), kind (1 digit), version 8, leg
 * (2 hex digits, 00 for Waybill and Shipment), 0, variant 8, then zeros.
 */
import { isValidAwbSerial } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";

export type ObjectKind = "Waybill" | "Shipment" | "TransportMovement";

const KIND_DIGIT: Record<ObjectKind, string> = { Waybill: "1", Shipment: "2", TransportMovement: "3" };
const DIGIT_KIND = new Map<string, ObjectKind>(
  Object.entries(KIND_DIGIT).map(([kind, digit]) => [digit, kind as ObjectKind]),
);

/** Legs a route map holds at most (the route-map core's bound), so a leg index fits two hex digits. */
export const MAX_LEGS = 12;

export type ObjectRef = { kind: ObjectKind; awb: AwbId; leg: number } | { kind: "Location"; code: string };

export function objectId(kind: ObjectKind, awb: AwbId, leg = 0): string {
  const hex = `${awb.prefix}${awb.serial}${KIND_DIGIT[kind]}8${leg.toString(16).padStart(2, "0")}08${"0".repeat(15)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^(\d{8})-(\d{3})([123])-8([0-9a-f]{2})0-8000-0{12}$/;
const LOCATION_RE = /^[A-Z]{3}$/;

/** The object an id names, or null for an id the service never gave (a 404). */
export function parseObjectId(id: string): ObjectRef | null {
  if (LOCATION_RE.test(id)) return { kind: "Location", code: id };
  const match = UUID_RE.exec(id.toLowerCase());
  if (!match) return null;
  const digits = `${match[1]}${match[2]}`;
  const awb = { prefix: digits.slice(0, 3), serial: digits.slice(3) };
  if (!isValidAwbSerial(awb.serial)) return null;
  const kind = DIGIT_KIND.get(match[3] ?? "");
  const leg = Number.parseInt(match[4] ?? "", 16);
  if (kind === undefined) return null;
  if (kind === "TransportMovement" ? leg < 1 || leg > MAX_LEGS : leg !== 0) return null;
  return { kind, awb, leg };
}

/** The good practice's `awb-{prefix}-{serial}` address of a Waybill, or null. */
export function parseAwbAlias(id: string): AwbId | null {
  const match = /^awb-(\d{3})-(\d{8})$/.exec(id);
  if (!match) return null;
  const awb = { prefix: match[1] ?? "", serial: match[2] ?? "" };
  return isValidAwbSerial(awb.serial) ? awb : null;
}
