/**
 * The local token endpoint's throttle of failed client authentications (wrong secret, unknown client,
 * malformed credentials), per client id and per source address, over a sliding window:
 * - a client id with FAILURES_PER_CLIENT failures in the window is refused unchecked (429 with
 *   Retry-After), its correct secret too: a throttle that still checked secrets would tell a guesser
 *   which guess was right at full speed. The lock lasts until the oldest of those failures leaves the
 *   window, so it ends a minute after the guessing stops;
 * - a source address with FAILURES_PER_ADDRESS failures in the window is refused for every client id
 *   that has itself failed in the window (and for credentials without a client id): it cannot keep
 *   guessing at a few failures per client below the per-client limit, while a client that has not
 *   failed is still checked (clients behind one NAT, and every local client on 127.0.0.1, are not
 *   held back by a neighbour).
 * In AWS the token endpoint is Cognito's; a WAF rate-based rule guards it per source address
 * (lib/constructs/token-endpoint-firewall.ts). Failures only: successful requests are never counted.
 */

export interface TokenThrottleLimits {
  windowMs: number;
  failuresPerClient: number;
  failuresPerAddress: number;
}

export const TOKEN_THROTTLE_LIMITS: TokenThrottleLimits = {
  windowMs: 60_000,
  failuresPerClient: 5,
  failuresPerAddress: 20,
};

/** Keys tracked before the ones with no failure in the window are swept. */
const SWEEP_ABOVE = 10_000;

export interface TokenThrottle {
  /** Seconds the request must wait (it is refused unchecked), or null when it may be checked. */
  refusal(clientId: string | null, address: string, nowMs: number): number | null;
  /** Counts a failed authentication of this client id (null when none could be read) and address. */
  failed(clientId: string | null, address: string, nowMs: number): void;
}

export function createTokenThrottle(limits: TokenThrottleLimits = TOKEN_THROTTLE_LIMITS): TokenThrottle {
  // The times of the latest failures per key, oldest first, at most the key's limit of them.
  const byClient = new Map<string, number[]>();
  const byAddress = new Map<string, number[]>();

  const recent = (log: Map<string, number[]>, key: string, nowMs: number): number[] => {
    const times = (log.get(key) ?? []).filter((at) => nowMs - at < limits.windowMs);
    if (times.length === 0) log.delete(key);
    else log.set(key, times);
    return times;
  };
  /** Seconds until the oldest of the `limit` latest failures leaves the window (at least 1). */
  const wait = (times: number[], limit: number, nowMs: number) => {
    const oldest = times[times.length - limit] ?? nowMs;
    return Math.max(1, Math.ceil((oldest + limits.windowMs - nowMs) / 1000));
  };
  const add = (log: Map<string, number[]>, key: string, limit: number, nowMs: number) => {
    const times = [...recent(log, key, nowMs), nowMs];
    log.set(key, times.slice(-limit));
    if (log.size > SWEEP_ABOVE) for (const other of [...log.keys()]) recent(log, other, nowMs);
  };

  return {
    refusal(clientId, address, nowMs) {
      const client = clientId === null ? [] : recent(byClient, clientId, nowMs);
      if (client.length >= limits.failuresPerClient) return wait(client, limits.failuresPerClient, nowMs);
      const fromAddress = recent(byAddress, address, nowMs);
      if (fromAddress.length >= limits.failuresPerAddress && (clientId === null || client.length > 0))
        return wait(fromAddress, limits.failuresPerAddress, nowMs);
      return null;
    },
    failed(clientId, address, nowMs) {
      if (clientId !== null) add(byClient, clientId, limits.failuresPerClient, nowMs);
      add(byAddress, address, limits.failuresPerAddress, nowMs);
    },
  };
}
