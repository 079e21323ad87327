/**
 * Air Waybill numbers: 3-digit airline prefix + 8-digit serial whose last digit is the first seven
 * digits mod 7 (DESIGN.md section 4). Accepted as "02012345675" or "020-12345675".
 */
import type { AwbId } from "./carrier-messages/types.ts";

const AWB_PATTERN = /^(\d{3})-?(\d{8})$/;

/** The check digit the serial's first seven digits call for. */
export function awbCheckDigit(firstSevenDigits: string): number {
  return Number(firstSevenDigits) % 7;
}

export function isValidAwbSerial(serial: string): boolean {
  return /^\d{8}$/.test(serial) && awbCheckDigit(serial.slice(0, 7)) === Number(serial[7]);
}

export type AwbParseResult =
  | { ok: true; awb: AwbId }
  | { ok: false; reason: "format" }
  | { ok: false; reason: "check-digit"; expectedDigit: number };

/** Parses "02012345675" or "020-12345675", checking the check digit. */
export function parseAwb(text: string): AwbParseResult {
  const match = AWB_PATTERN.exec(text.trim());
  if (!match) return { ok: false, reason: "format" };
  const [, prefix, serial] = match as unknown as [string, string, string];
  const expectedDigit = awbCheckDigit(serial.slice(0, 7));
  if (expectedDigit !== Number(serial[7])) return { ok: false, reason: "check-digit", expectedDigit };
  return { ok: true, awb: { prefix, serial } };
}

/** Canonical 11-digit key, e.g. "02012345675". */
export function awbKey(awb: AwbId): string {
  return `${awb.prefix}${awb.serial}`;
}

/** Display form, e.g. "020-12345675". */
export function formatAwb(awb: AwbId): string {
  return `${awb.prefix}-${awb.serial}`;
}
