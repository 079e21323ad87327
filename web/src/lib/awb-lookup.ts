/**
 * The AWB lookup of every page: what a person types or pastes ("020-12345675", "02012345675",
 * " 020 1234 5675 ") to the route map's 11 digits, or what is wrong with it in words. The check digit
 * is the core's own rule (functions/core/awb.ts, type-only imports), so the app refuses what the API
 * would refuse before asking it.
 */
import { parseAwb } from "../../../functions/core/awb.ts";

export type AwbLookup = { ok: true; awb: string } | { ok: false; message: string };

export function lookupAwb(text: string): AwbLookup {
  const typed = text.replace(/\s+/g, "");
  if (typed === "") return { ok: false, message: "Type an AWB, e.g. 020-12345675." };
  const parsed = parseAwb(typed);
  if (parsed.ok) return { ok: true, awb: `${parsed.awb.prefix}${parsed.awb.serial}` };
  if (parsed.reason === "check-digit")
    return {
      ok: false,
      message: `${typed} is not a valid AWB: its last digit should be ${parsed.expectedDigit}.`,
    };
  return { ok: false, message: `${typed} is not an AWB: type 11 digits, e.g. 020-12345675.` };
}
