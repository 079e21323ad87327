/**
 * The local token endpoint's throttle of failed client authentications: per client id (its correct
 * secret refused unchecked too, until the oldest counted failure leaves the window) and per source
 * address (client ids that failed in the window, and credentials without a client id), sliding.
 */
import { describe, expect, it } from "vitest";
import { createTokenThrottle } from "../../../bin/local/token-throttle.ts";

const limits = { windowMs: 60_000, failuresPerClient: 5, failuresPerAddress: 20 };
const T = 1_700_000_000_000;

describe("per client id", () => {
  it("refuses a client id after 5 failures in the window, from any address, until the oldest leaves it", () => {
    const throttle = createTokenThrottle(limits);
    for (let i = 0; i < 5; i++) {
      expect(throttle.refusal("c1", `10.0.0.${i}`, T + i * 1000)).toBeNull();
      throttle.failed("c1", `10.0.0.${i}`, T + i * 1000);
    }
    // The oldest failure (T) leaves the window at T + 60 s.
    expect(throttle.refusal("c1", "10.9.9.9", T + 5_000)).toBe(55);
    expect(throttle.refusal("c1", "10.9.9.9", T + 59_500)).toBe(1);
    expect(throttle.refusal("c1", "10.9.9.9", T + 60_000)).toBeNull();
    // Other client ids are not held back.
    expect(throttle.refusal("c2", "10.0.0.1", T + 5_000)).toBeNull();
  });

  it("never counts what it refused: the lock ends a window after the guessing stops", () => {
    const throttle = createTokenThrottle(limits);
    for (let i = 0; i < 5; i++) throttle.failed("c1", "a", T);
    for (let i = 0; i < 100; i++) expect(throttle.refusal("c1", "a", T + i * 100)).not.toBeNull();
    expect(throttle.refusal("c1", "a", T + 60_000)).toBeNull();
  });
});

describe("per source address", () => {
  it("after 20 failures refuses the client ids that failed and credentials without one; others are checked", () => {
    const throttle = createTokenThrottle(limits);
    for (let i = 0; i < 20; i++) throttle.failed(`guess${i % 10}`, "198.51.100.7", T + i);
    expect(throttle.refusal("guess3", "198.51.100.7", T + 100)).toBe(60);
    expect(throttle.refusal(null, "198.51.100.7", T + 100)).toBe(60);
    expect(throttle.refusal("clean-client", "198.51.100.7", T + 100)).toBeNull();
    // The same client id from another address is under its own limit (2 failures).
    expect(throttle.refusal("guess3", "203.0.113.1", T + 100)).toBeNull();
  });
});
