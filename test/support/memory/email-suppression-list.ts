/** EmailSuppressionList in memory, by normalised address, for use-case tests. */
import type { EmailSuppression, EmailSuppressionList } from "../../../functions/core/ports/notifications.ts";

export interface MemoryEmailSuppressionList extends EmailSuppressionList {
  readonly entries: Map<string, EmailSuppression>;
}

export function memoryEmailSuppressionList(): MemoryEmailSuppressionList {
  const entries = new Map<string, EmailSuppression>();
  return {
    entries,
    async get(address) {
      const found = entries.get(address);
      return found ? structuredClone(found) : null;
    },
    async suppress(suppression) {
      entries.set(suppression.address, structuredClone(suppression));
    },
  };
}
