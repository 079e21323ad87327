/**
 * The route-map repository port in memory, with the DynamoDB adapter's semantics (version-conditioned
 * atomic writes, creations conditioned on the early XTD grants' revision, reader items rewritten with
 * the record, the same snapshot retention, index-style reader queries). For use-case tests and
 * benchmarks; `operations` counts calls so a test can see what a use case asked for.
 */

import { epochSeconds, snapshotExpiresAt } from "../../../functions/adapters/route-map-items.ts";
import { awbKey } from "../../../functions/core/awb.ts";
import type { AwbId } from "../../../functions/core/carrier-messages/types.ts";
import type { DomainEvent } from "../../../functions/core/events.ts";
import type {
  EarlyXtdGrants,
  ReaderQuery,
  RouteMapRecord,
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapSnapshot,
  RouteMapView,
  RouteMapWrite,
  TriggerRecord,
} from "../../../functions/core/ports/route-maps.ts";
import { matchesSearch } from "../../../functions/core/use-cases/search-route-maps.ts";

export interface MemoryRouteMapRepository extends RouteMapRepository {
  /** Outbox events in write order. */
  readonly events: DomainEvent[];
  readonly triggers: Map<string, TriggerRecord>;
  readonly operations: Record<string, number>;
  /** Makes the next `count` writes answer "conflict" (as if another writer had won). */
  failNextWrites(count: number): void;
  /** Makes the `nth` write from now on (1 = the next) throw `error`, as a store refusing a change would. */
  throwOnWrite(nth: number, error: Error): void;
}

interface Entry {
  record: RouteMapRecord;
  /** With the TTL the DynamoDB adapter gives each snapshot item. */
  snapshots: Array<RouteMapSnapshot & { version: number; expiresAt: number }>;
  readers: Map<string, RouteMapSearchFields>;
}

const clone = <T>(value: T): T => structuredClone(value);

function viewOf(record: RouteMapRecord): RouteMapView {
  const { state: _state, ...view } = record;
  return clone(view);
}

function readerKeys(record: RouteMapRecord): string[] {
  return [
    ...(record.ownerAgent ? [`AGT#${record.ownerAgent.code}#${record.ownerAgent.cass}`] : []),
    ...record.xtdForwarders.map((id) => `FWD#${id}`),
  ];
}

export function memoryRouteMapRepository(): MemoryRouteMapRepository {
  const entries = new Map<string, Entry>();
  const events: DomainEvent[] = [];
  const triggers = new Map<string, TriggerRecord>();
  /** Per AWB without a route map: the XTD grants waiting for its creation (the `CURRENT#XTD` item). */
  const earlyXtd = new Map<string, EarlyXtdGrants>();
  const operations: Record<string, number> = {};
  let failures = 0;
  let throwing: { countdown: number; error: Error } | null = null;
  const count = (name: string) => {
    operations[name] = (operations[name] ?? 0) + 1;
  };
  const triggerKey = (t: TriggerRecord) => `${awbKey(t.awb)}#${t.program}#${t.forwarderId}`;

  return {
    events,
    triggers,
    operations,
    failNextWrites(n) {
      failures = n;
    },
    throwOnWrite(nth, error) {
      throwing = { countdown: nth, error };
    },
    async get(awb: AwbId) {
      count("get");
      const entry = entries.get(awbKey(awb));
      return entry ? clone(entry.record) : null;
    },
    async getForChange(awb) {
      count("getForChange");
      const key = awbKey(awb);
      const entry = entries.get(key);
      if (entry) return { record: clone(entry.record), earlyXtd: null };
      return { record: null, earlyXtd: clone(earlyXtd.get(key) ?? { forwarderIds: [], revision: 0 }) };
    },
    async getView(awb) {
      count("getView");
      const entry = entries.get(awbKey(awb));
      return entry ? viewOf(entry.record) : null;
    },
    async getViews(awbs) {
      count("getViews");
      return awbs.flatMap((awb) => {
        const entry = entries.get(awbKey(awb));
        return entry ? [viewOf(entry.record)] : [];
      });
    },
    async write(change: RouteMapWrite) {
      count("write");
      if (throwing !== null && --throwing.countdown === 0) {
        const { error } = throwing;
        throwing = null;
        throw error;
      }
      // Everything below runs without an await: atomic, like the DynamoDB transaction.
      if (failures > 0) {
        failures--;
        return "conflict";
      }
      const key = awbKey(change.next.awb);
      const entry = entries.get(key);
      if (change.previous === null) {
        const revision = earlyXtd.get(key)?.revision ?? 0;
        if (entry !== undefined || revision !== (change.earlyXtdRevision ?? 0)) return "conflict";
        // The grants now live on the record (the DynamoDB adapter deletes its item in the same way).
        earlyXtd.delete(key);
      } else if (entry?.record.version !== change.previous.version) return "conflict";
      const next: Entry = entry ?? { record: change.next, snapshots: [], readers: new Map() };
      next.record = clone(change.next);
      if (change.snapshot)
        next.snapshots.push({
          ...change.snapshot,
          version: change.next.version,
          expiresAt: snapshotExpiresAt(change.next),
        });
      next.readers = new Map(readerKeys(next.record).map((k) => [k, clone(change.searchFields)]));
      entries.set(key, next);
      events.push(...clone(change.events));
      if (change.trigger) triggers.set(triggerKey(change.trigger), clone(change.trigger));
      return "written";
    },
    async snapshots(awb, now) {
      count("snapshots");
      const entry = entries.get(awbKey(awb));
      const nowSeconds = epochSeconds(now);
      return (entry?.snapshots ?? [])
        .filter((s) => s.expiresAt > nowSeconds)
        .sort((a, b) =>
          a.snapshotAt === b.snapshotAt ? b.version - a.version : a.snapshotAt < b.snapshotAt ? 1 : -1,
        )
        .map(({ version: _version, expiresAt: _expiresAt, ...s }) => ({ ...s }));
    },
    async snapshotPage(awb, now, page) {
      const all = await this.snapshots(awb, now);
      const start = (page.page - 1) * page.pageSize;
      return { total: all.length, items: all.slice(start, start + page.pageSize) };
    },
    async putTrigger(trigger, options) {
      count("putTrigger");
      const key = awbKey(trigger.awb);
      if (options.onlyWithoutRouteMap && entries.has(key)) return "route-map-exists";
      triggers.set(triggerKey(trigger), clone(trigger));
      if (options.onlyWithoutRouteMap && trigger.program === "XTD") {
        const early = earlyXtd.get(key) ?? { forwarderIds: [], revision: 0 };
        earlyXtd.set(key, {
          forwarderIds: [...new Set([...early.forwarderIds, trigger.forwarderId])].sort(),
          revision: early.revision + 1,
        });
      }
      return "written";
    },
    async queryReaders(query: ReaderQuery) {
      count("queryReaders");
      const found: RouteMapSearchFields[] = [];
      for (const entry of entries.values()) {
        const fields = entry.readers.get(query.readerKey);
        if (fields && matchesSearch(fields, query.filters)) found.push(clone(fields));
      }
      // The index's order: newest creation first.
      found.sort((a, b) => (a.CreationDate < b.CreationDate ? 1 : a.CreationDate > b.CreationDate ? -1 : 0));
      return found.slice(0, query.limit);
    },
  };
}
