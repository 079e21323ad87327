/** EmailConfirmationRepository in memory, with the DynamoDB adapter's semantics (copies in and out). */
import type { EmailConfirmation } from "../../../functions/core/notifications/index.ts";
import type { EmailConfirmationRepository } from "../../../functions/core/ports/notifications.ts";

export function memoryEmailConfirmationRepository(): EmailConfirmationRepository & {
  readonly all: () => EmailConfirmation[];
} {
  const byKey = new Map<string, EmailConfirmation>();
  const key = (forwarderId: string, address: string) => `${forwarderId}#${address}`;
  const copy = <T>(value: T): T => structuredClone(value);
  return {
    all: () => [...byKey.values()].map(copy),
    async get(forwarderId, address) {
      const found = byKey.get(key(forwarderId, address));
      return found ? copy(found) : null;
    },
    async findByTokenHash(tokenHash) {
      const found = [...byKey.values()].find((c) => c.tokenHash === tokenHash);
      return found ? copy(found) : null;
    },
    async putPending(confirmation) {
      const existing = byKey.get(key(confirmation.forwarderId, confirmation.address));
      if (existing?.status === "confirmed") return;
      byKey.set(key(confirmation.forwarderId, confirmation.address), copy(confirmation));
    },
    async confirm(confirmation, tokenHash) {
      const k = key(confirmation.forwarderId, confirmation.address);
      if (byKey.get(k)?.tokenHash !== tokenHash) return false;
      byKey.set(k, copy(confirmation));
      return true;
    },
  };
}
