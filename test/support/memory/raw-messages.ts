/** The raw-message store in memory, for use-case and handler tests (no retention: nothing expires). */
import type { RawMessage, RawMessageStore } from "../../../functions/core/ports/raw-messages.ts";

export interface MemoryRawMessageStore extends RawMessageStore {
  /** Every message kept, by `<prefix>#<receiptId>`. */
  messages: Map<string, RawMessage>;
  /** Puts made (a retried receipt puts again). */
  puts: number;
}

export function memoryRawMessageStore(): MemoryRawMessageStore {
  const messages = new Map<string, RawMessage>();
  const store: MemoryRawMessageStore = {
    messages,
    puts: 0,
    async put(message) {
      store.puts += 1;
      messages.set(`${message.carrierPrefix}#${message.receiptId}`, { ...message });
    },
    async get(carrierPrefix, receiptId) {
      const found = messages.get(`${carrierPrefix}#${receiptId}`);
      return found ? { ...found } : null;
    },
  };
  return store;
}
