/** AWB numbers: property tests of the mod-7 check digit and both accepted spellings. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { awbCheckDigit, formatAwb, isValidAwbSerial, parseAwb } from "../../functions/core/awb.ts";

const digits = (length: number) => fc.stringMatching(new RegExp(`^\\d{${length}}$`));

describe("AWB check digit", () => {
  it("accepts exactly the serial whose 8th digit is the first seven mod 7, in both spellings", () => {
    fc.assert(
      fc.property(digits(3), digits(7), (prefix, seven) => {
        const serial = `${seven}${Number(seven) % 7}`;
        expect(isValidAwbSerial(serial)).toBe(true);
        for (const text of [`${prefix}${serial}`, `${prefix}-${serial}`, ` ${prefix}-${serial} `]) {
          expect(parseAwb(text)).toEqual({ ok: true, awb: { prefix, serial } });
        }
        expect(formatAwb({ prefix, serial })).toBe(`${prefix}-${serial}`);
      }),
    );
  });

  it("refuses every other 8th digit, naming the expected one", () => {
    fc.assert(
      fc.property(digits(3), digits(7), fc.integer({ min: 0, max: 9 }), (prefix, seven, last) => {
        fc.pre(last !== Number(seven) % 7);
        expect(parseAwb(`${prefix}${seven}${last}`)).toEqual({
          ok: false,
          reason: "check-digit",
          expectedDigit: awbCheckDigit(seven),
        });
      }),
    );
  });

  it("refuses anything that is not 3 + 8 digits", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^\s*\d{3}-?\d{8}\s*$/.test(text));
        expect(parseAwb(text)).toEqual({ ok: false, reason: "format" });
      }),
    );
  });
});
