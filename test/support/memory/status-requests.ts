/** The status-request ports in memory (window, pull queue, usage ledger), with the DynamoDB adapters' semantics. */
import type {
  CarrierRequestInbox,
  PulledStatusRequest,
  StatusRequestWindow,
  UsageEntry,
  UsageLedger,
} from "../../../functions/core/ports/carriers.ts";

export function memoryStatusRequestWindow(): StatusRequestWindow & {
  windows: Map<string, { requestId: string; until: string }>;
} {
  const windows = new Map<string, { requestId: string; until: string }>();
  return {
    windows,
    async claim({ awb, requestId, now, until }) {
      const key = `${awb.prefix}${awb.serial}`;
      const running = windows.get(key);
      if (running && running.until > now) return { claimed: false, requestId: running.requestId };
      windows.set(key, { requestId, until });
      return { claimed: true };
    },
  };
}

export function memoryCarrierInbox(): CarrierRequestInbox & { items: Map<string, PulledStatusRequest> } {
  const items = new Map<string, PulledStatusRequest>();
  const key = (prefix: string, id: string) => `${prefix}/${id}`;
  return {
    items,
    async put(item) {
      items.set(key(item.request.carrierPrefix, item.request.requestId), structuredClone(item));
    },
    async list(prefix, page) {
      const all = [...items.values()]
        .filter((item) => item.request.carrierPrefix === prefix)
        .sort((a, b) => a.request.requestId.localeCompare(b.request.requestId));
      const start = (page.page - 1) * page.pageSize;
      return { items: all.slice(start, start + page.pageSize), total: all.length };
    },
    async ack(prefix, requestId) {
      return items.delete(key(prefix, requestId));
    },
  };
}

export function memoryUsageLedger(): UsageLedger & { entries: UsageEntry[] } {
  const entries: UsageEntry[] = [];
  return {
    entries,
    async record(entry) {
      entries.push(structuredClone(entry));
    },
    async forForwarder(forwarderId, month, page) {
      const all = entries.filter((entry) => entry.forwarderId === forwarderId && entry.month === month);
      const start = (page.page - 1) * page.pageSize;
      return {
        count: all.length,
        entries: { items: all.slice(start, start + page.pageSize), total: all.length },
      };
    },
    async forMonth(month) {
      const counts = new Map<string, number>();
      for (const entry of entries)
        if (entry.month === month) counts.set(entry.forwarderId, (counts.get(entry.forwarderId) ?? 0) + 1);
      return [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([forwarderId, count]) => ({ forwarderId, count }));
    },
  };
}
