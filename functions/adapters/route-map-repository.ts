/**
 * Route maps in DynamoDB (table RouteMaps, pk `AWB#<11 digits>`):
 *   CURRENT                          the record (state, version, rendered JSON, staleAfter, readers)
 *   CURRENT#XTD                      only while there is no CURRENT: XTD grants recorded before the
 *                                      route map existed (forwarderIds string set, revision +1 each)
 *   SNAP#<updatedAt ISO>#<version 8> one snapshot per change, TTL expiresAt = creation + 30 days
 *   EVT#<eventId>                    outbox item (functions/contracts/outbox.ts), TTL 7 days from the write
 *   READER#AGT#<code>#<cass>         one per reader, on the byReader index: readerKey / readerSort
 *   READER#FWD#<forwarderId>           (`<CreationDate UTC>#<awb11>`) + denormalised search fields
 *   TRIGGER#<QP|XTD>#<forwarderId>   sendsme requests (XTD ones grant read access)
 * Only the first two sort keys begin with "CURRENT", so one Query reads what a change starts from: the
 * record, or the early grants a new route map starts with. One TransactWriteItems per change,
 * conditioned on CURRENT's version; a creation also on CURRENT#XTD's revision (and deletes it: the
 * grants then live on CURRENT), so an XTD sendsme racing it makes it a conflict. A change that is
 * CURRENT alone is the same conditional write without a transaction (billed once, not twice).
 * Write cost (docs/cost.md): CURRENT's aggregate and rendering and each snapshot's rendering are stored
 * compressed (`stateZ`, `routeMapZ`, `codec`: route-map-codec.ts; items written before keep plain
 * `state` / `routeMapJson` and are read as they are), and reader items are rewritten only when their
 * search fields or the readers change. Reads are GetItem,
 * BatchGetItem and Query only: this adapter has no Scan. Retention is decided here (DESIGN.md section
 * 3: TTL attributes live only in adapters): the core's writes carry no expiry.
 */
import {
  BatchGetCommand,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { OUTBOX_ATTRIBUTES, OUTBOX_KIND, OUTBOX_SORT_KEY_PREFIX } from "../contracts/outbox.ts";
import { awbKey } from "../core/awb.ts";
import type { AgentRef, AwbId } from "../core/carrier-messages/types.ts";
import { WriteTooLargeError } from "../core/errors.ts";
import type {
  RouteMapRecord,
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapSnapshot,
  RouteMapView,
  RouteMapWrite,
  TriggerRecord,
} from "../core/ports/route-maps.ts";
import type { ShipmentState } from "../core/route-map/shipment-state.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isTooLarge, isWriteConflict } from "./dynamo-errors.ts";
import { packJson, ROUTE_MAP_CODEC, unpackJson } from "./route-map-codec.ts";
import { queryReaders } from "./route-map-search.ts";

type Item = Record<string, NativeAttributeValue>;
type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/** History retention (spec "Limits"): snapshots live 30 days from the route map's creation. */
const SNAPSHOT_RETENTION_SECONDS = 30 * 24 * 3600;
/** Outbox items only need to outlive stream processing and replays: 7 days from their write. */
const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;

/** An ISO instant as epoch seconds (DynamoDB TTL attributes). */
export function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** TTL of a change's snapshot: the route map's creation (CreationDate) + 30 days. */
export const snapshotExpiresAt = (next: RouteMapRecord) =>
  epochSeconds(next.state.createdAt) + SNAPSHOT_RETENTION_SECONDS;

/** TTL of a change's outbox items: the time of the write + 7 days. */
const outboxExpiresAt = (next: RouteMapRecord) => epochSeconds(next.updatedAt) + OUTBOX_RETENTION_SECONDS;

const pk = (awb: AwbId) => `AWB#${awbKey(awb)}`;
const CURRENT = "CURRENT";
/** Sorts right after CURRENT and begins with it: read together by one Query (getForChange). */
const EARLY_XTD = "CURRENT#XTD";
const EARLY_XTD_NAMES = { "#forwarderIds": "forwarderIds", "#revision": "revision" };
/** Everything of CURRENT except the aggregate: what a read needs while the stored JSON is exact. */
const VIEW_ATTRIBUTES = [
  "awb11",
  "origin",
  "destination",
  "version",
  "routeMapJson",
  "routeMapZ",
  "codec",
  "staleAfter",
  "ownerAgent",
  "xtdForwarders",
  "createdAt",
  "updatedAt",
];
const VIEW_PROJECTION = {
  ProjectionExpression: VIEW_ATTRIBUTES.map((name) => `#${name}`).join(", "),
  ExpressionAttributeNames: Object.fromEntries(VIEW_ATTRIBUTES.map((name) => [`#${name}`, name])),
};

const agentReaderKey = (agent: AgentRef) => `AGT#${agent.code}#${agent.cass}`;
const forwarderReaderKey = (forwarderId: string) => `FWD#${forwarderId}`;

function readerKeys(record: Pick<RouteMapRecord, "ownerAgent" | "xtdForwarders">): string[] {
  return [
    ...(record.ownerAgent ? [agentReaderKey(record.ownerAgent)] : []),
    ...record.xtdForwarders.map(forwarderReaderKey),
  ];
}

function awbOf(awb11: string): AwbId {
  return { prefix: awb11.slice(0, 3), serial: awb11.slice(3) };
}

/**
 * The stored JSON of an item: compressed (`<name>Z` with its `codec`, route-map-codec.ts) since issue
 * 15, plain text in items written before (still read as they are).
 */
function jsonOf(item: Item, name: "routeMapJson" | "state"): string | undefined {
  const packed = item[`${name === "state" ? "state" : "routeMap"}Z`] as Uint8Array | undefined;
  return packed ? unpackJson(packed, item.codec as number) : undefined;
}

/** Two sets of search fields alike (the reader items would be written unchanged). */
function sameFields(a: RouteMapSearchFields, b: RouteMapSearchFields): boolean {
  return (Object.keys(a) as Array<keyof RouteMapSearchFields>).every((key) => a[key] === b[key]);
}

function viewOf(item: Item): RouteMapView {
  return {
    awb: awbOf(item.awb11 as string),
    origin: item.origin as string,
    destination: item.destination as string,
    version: item.version as number,
    routeMapJson: jsonOf(item, "routeMapJson") ?? (item.routeMapJson as string),
    staleAfter: (item.staleAfter as string | undefined) ?? null,
    ownerAgent: (item.ownerAgent as AgentRef | undefined) ?? null,
    xtdForwarders: (item.xtdForwarders as string[] | undefined) ?? [],
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

function recordOf(item: Item): RouteMapRecord {
  const state = jsonOf(item, "state");
  return {
    ...viewOf(item),
    state: state ? (JSON.parse(state) as ShipmentState) : (item.state as ShipmentState),
  };
}

function snapshotOf(item: Item): RouteMapSnapshot {
  return {
    routeMapJson: jsonOf(item, "routeMapJson") ?? (item.routeMapJson as string),
    snapshotAt: item.snapshotAt as string,
  };
}

function triggerItem(trigger: TriggerRecord): Item {
  return {
    pk: pk(trigger.awb),
    sk: `TRIGGER#${trigger.program}#${trigger.forwarderId}`,
    program: trigger.program,
    forwarderId: trigger.forwarderId,
    agentCode: trigger.agent.code,
    agentCass: trigger.agent.cass,
    requestedAt: trigger.requestedAt,
  };
}

export function dynamoRouteMapRepository(tableName = config.table("routeMaps")): RouteMapRepository {
  const db = () => dynamo();

  function changeItems(change: RouteMapWrite): TransactItem[] {
    const { previous, next } = change;
    const key = pk(next.awb);
    // Compressed once: the snapshot of a change is the record's own rendering, the same bytes.
    const routeMapZ = packJson(next.routeMapJson);
    const items: TransactItem[] = [
      {
        Put: {
          TableName: tableName,
          Item: {
            pk: key,
            sk: CURRENT,
            awb11: awbKey(next.awb),
            origin: next.origin,
            destination: next.destination,
            codec: ROUTE_MAP_CODEC,
            stateZ: packJson(JSON.stringify(next.state)),
            version: next.version,
            routeMapZ,
            staleAfter: next.staleAfter ?? undefined,
            ownerAgent: next.ownerAgent ?? undefined,
            xtdForwarders: next.xtdForwarders,
            createdAt: next.createdAt,
            updatedAt: next.updatedAt,
          },
          ...(previous
            ? {
                ConditionExpression: "version = :expected",
                ExpressionAttributeValues: { ":expected": previous.version },
              }
            : { ConditionExpression: "attribute_not_exists(pk)" }),
        },
      },
    ];
    if (!previous) items.push(earlyXtdCondition(key, change.earlyXtdRevision ?? 0));
    if (change.snapshot) {
      items.push({
        Put: {
          TableName: tableName,
          Item: {
            pk: key,
            sk: `SNAP#${change.snapshot.snapshotAt}#${String(next.version).padStart(8, "0")}`,
            codec: ROUTE_MAP_CODEC,
            routeMapZ:
              change.snapshot.routeMapJson === next.routeMapJson
                ? routeMapZ
                : packJson(change.snapshot.routeMapJson),
            snapshotAt: change.snapshot.snapshotAt,
            expiresAt: snapshotExpiresAt(next),
          },
        },
      });
    }
    for (const event of change.events) {
      items.push({
        Put: {
          TableName: tableName,
          Item: {
            pk: key,
            sk: `${OUTBOX_SORT_KEY_PREFIX}${event.eventId}`,
            [OUTBOX_ATTRIBUTES.kind]: OUTBOX_KIND,
            [OUTBOX_ATTRIBUTES.event]: event,
            [OUTBOX_ATTRIBUTES.expiresAt]: outboxExpiresAt(next),
          },
        },
      });
    }
    const fields = change.searchFields;
    const readerSort = `${fields.CreationDate}#${awbKey(next.awb)}`;
    const current = readerKeys(next);
    // A reader item already holding these fields is left as it is (most status messages change no
    // search field): the change's condition on CURRENT's version still covers it.
    const kept =
      previous && change.previousSearchFields && sameFields(change.previousSearchFields, fields)
        ? readerKeys(previous)
        : [];
    for (const readerKey of current) {
      if (kept.includes(readerKey)) continue;
      items.push({
        Put: {
          TableName: tableName,
          Item: {
            pk: key,
            sk: `READER#${readerKey}`,
            readerKey,
            readerSort,
            ...fields,
            DeliveryDate: fields.DeliveryDate ?? undefined,
            ReceiptDate: fields.ReceiptDate ?? undefined,
          },
        },
      });
    }
    // A new FWB naming another agent moves ownership: the old owner's reader item goes in the same change.
    for (const gone of previous ? readerKeys(previous).filter((k) => !current.includes(k)) : []) {
      items.push({ Delete: { TableName: tableName, Key: { pk: key, sk: `READER#${gone}` } } });
    }
    if (change.trigger) items.push({ Put: { TableName: tableName, Item: triggerItem(change.trigger) } });
    if (items.length > 100) {
      // DynamoDB's transaction limit; a real itinerary stays far below it (about 3 items per leg).
      throw new WriteTooLargeError(
        `the route-map change for ${awbKey(next.awb)} needs ${items.length} storage items (limit 100)`,
      );
    }
    return items;
  }

  /**
   * A creation holds the early XTD grants to the revision it read: none (the item must not exist), or
   * that revision, deleting the item (one action per item in a transaction: the Delete carries the
   * condition itself). A sendsme recorded since fails the creation as a conflict.
   */
  function earlyXtdCondition(key: string, revision: number): TransactItem {
    if (revision === 0) {
      return {
        ConditionCheck: {
          TableName: tableName,
          Key: { pk: key, sk: EARLY_XTD },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      };
    }
    return {
      Delete: {
        TableName: tableName,
        Key: { pk: key, sk: EARLY_XTD },
        ConditionExpression: "#revision = :revision",
        ExpressionAttributeNames: { "#revision": "revision" },
        ExpressionAttributeValues: { ":revision": revision },
      },
    };
  }

  async function queryAll(
    input: ConstructorParameters<typeof QueryCommand>[0],
    limit: number,
  ): Promise<Item[]> {
    const out: Item[] = [];
    let startKey: Record<string, NativeAttributeValue> | undefined;
    do {
      const page = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      out.push(...((page.Items as Item[] | undefined) ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey && out.length < limit);
    return out;
  }

  return {
    async get(awb) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: { pk: pk(awb), sk: CURRENT }, ConsistentRead: true }),
      );
      return Item ? recordOf(Item) : null;
    },

    async getForChange(awb) {
      // Both items together stay far below a Query page (1 MB): CURRENT is at most 400 KB.
      const { Items = [] } = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :current)",
          ExpressionAttributeValues: { ":pk": pk(awb), ":current": CURRENT },
          ConsistentRead: true,
        }),
      );
      const current = Items.find((item) => item.sk === CURRENT);
      if (current) return { record: recordOf(current), earlyXtd: null };
      const early = Items.find((item) => item.sk === EARLY_XTD);
      return {
        record: null,
        earlyXtd: early
          ? {
              forwarderIds: [...((early.forwarderIds as Set<string> | undefined) ?? [])].sort(),
              revision: early.revision as number,
            }
          : { forwarderIds: [], revision: 0 },
      };
    },

    async getView(awb) {
      const { Item } = await db().send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: pk(awb), sk: CURRENT },
          ...VIEW_PROJECTION,
        }),
      );
      return Item ? viewOf(Item) : null;
    },

    async getViews(awbs) {
      const views: RouteMapView[] = [];
      for (let i = 0; i < awbs.length; i += 100) {
        let keys: Array<Record<string, NativeAttributeValue>> = awbs
          .slice(i, i + 100)
          .map((awb) => ({ pk: pk(awb), sk: CURRENT }));
        for (let attempt = 0; keys.length > 0; attempt++) {
          if (attempt > 0)
            await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
          const result = await db().send(
            new BatchGetCommand({
              RequestItems: { [tableName]: { Keys: keys, ...VIEW_PROJECTION } },
            }),
          );
          views.push(...((result.Responses?.[tableName] as Item[] | undefined) ?? []).map(viewOf));
          keys = (result.UnprocessedKeys?.[tableName]?.Keys as typeof keys | undefined) ?? [];
          if (attempt > 8 && keys.length > 0) throw new Error("BatchGetItem kept leaving keys unprocessed");
        }
      }
      return views;
    },

    async write(change) {
      try {
        const items = changeItems(change);
        const [only] = items;
        // A change that is the record alone (no snapshot, event or reader item) needs no transaction,
        // which DynamoDB bills twice: the same conditional Put on its own.
        if (items.length === 1 && only?.Put) await db().send(new PutCommand(only.Put));
        else await db().send(new TransactWriteCommand({ TransactItems: items }));
        return "written";
      } catch (error) {
        if (isWriteConflict(error)) return "conflict";
        if (isTooLarge(error))
          throw new WriteTooLargeError(
            `the route-map change for ${awbKey(change.next.awb)} is too large to store`,
          );
        throw error;
      }
    },

    async snapshots(awb, now) {
      const items = await queryAll(
        {
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :snap)",
          // TTL deletion lags by up to days: expired snapshots are filtered out here as well.
          FilterExpression: "expiresAt > :now",
          ExpressionAttributeValues: { ":pk": pk(awb), ":snap": "SNAP#", ":now": epochSeconds(now) },
          ScanIndexForward: false,
        },
        Number.POSITIVE_INFINITY,
      );
      return items.map(snapshotOf);
    },

    async snapshotPage(awb, now, page) {
      // Keys only (newest first) to count and find the page, then the page's items themselves.
      const keys = await queryAll(
        {
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :snap)",
          FilterExpression: "expiresAt > :now",
          ExpressionAttributeValues: { ":pk": pk(awb), ":snap": "SNAP#", ":now": epochSeconds(now) },
          ProjectionExpression: "sk",
          ScanIndexForward: false,
        },
        Number.POSITIVE_INFINITY,
      );
      const start = (page.page - 1) * page.pageSize;
      const wanted = keys.slice(start, start + page.pageSize).map((item) => item.sk as string);
      const found = new Map<string, RouteMapSnapshot>();
      for (let i = 0; i < wanted.length; i += 100) {
        let batch: Array<Record<string, NativeAttributeValue>> = wanted
          .slice(i, i + 100)
          .map((sk) => ({ pk: pk(awb), sk }));
        for (let attempt = 0; batch.length > 0; attempt++) {
          if (attempt > 0)
            await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
          if (attempt > 10) throw new Error("BatchGetItem kept leaving snapshot keys unprocessed");
          const result = await db().send(
            new BatchGetCommand({
              RequestItems: {
                [tableName]: {
                  Keys: batch,
                  ProjectionExpression: "sk, routeMapJson, routeMapZ, codec, snapshotAt",
                },
              },
            }),
          );
          for (const item of (result.Responses?.[tableName] as Item[] | undefined) ?? []) {
            found.set(item.sk as string, snapshotOf(item));
          }
          batch = (result.UnprocessedKeys?.[tableName]?.Keys as typeof batch | undefined) ?? [];
        }
      }
      // A snapshot expired (deleted) between the two reads is left out.
      const items = wanted.flatMap((sk) => {
        const snapshot = found.get(sk);
        return snapshot ? [snapshot] : [];
      });
      return { total: keys.length, items };
    },

    async putTrigger(trigger, options) {
      if (!options.onlyWithoutRouteMap) {
        await db().send(new PutCommand({ TableName: tableName, Item: triggerItem(trigger) }));
        return "written";
      }
      const key = pk(trigger.awb);
      const items: TransactItem[] = [
        { Put: { TableName: tableName, Item: triggerItem(trigger) } },
        {
          ConditionCheck: {
            TableName: tableName,
            Key: { pk: key, sk: CURRENT },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
      ];
      if (trigger.program === "XTD") {
        // The new route map's first readers; the revision moves so a creation that missed it fails.
        items.push({
          Update: {
            TableName: tableName,
            Key: { pk: key, sk: EARLY_XTD },
            UpdateExpression: "ADD #forwarderIds :forwarder, #revision :one",
            ExpressionAttributeNames: EARLY_XTD_NAMES,
            ExpressionAttributeValues: { ":forwarder": new Set([trigger.forwarderId]), ":one": 1 },
          },
        });
      }
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        return "written";
      } catch (error) {
        if (isWriteConflict(error)) return "route-map-exists";
        throw error;
      }
    },

    // The search side of the byReader index lives in route-map-search.ts.
    queryReaders: (query) => queryReaders(tableName, query),
  };
}
