/**
 * The route-map repository's writes: one change as one TransactWriteItems (CURRENT conditioned on its
 * version, a creation also on the early XTD grants; the snapshot, outbox items and reader items with
 * it), or as one conditional Put when it is CURRENT alone; and the sendsme triggers. Keys and item
 * shapes: route-map-items.ts.
 */
import { PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { OUTBOX_ATTRIBUTES, OUTBOX_KIND, OUTBOX_SORT_KEY_PREFIX } from "../contracts/outbox.ts";
import { awbKey } from "../core/awb.ts";
import { WriteTooLargeError } from "../core/errors.ts";
import type { RouteMapRepository, RouteMapSearchFields, RouteMapWrite } from "../core/ports/route-maps.ts";
import { dynamo } from "./aws-clients.ts";
import { isTooLarge, isWriteConflict } from "./dynamo-errors.ts";
import { packJson, ROUTE_MAP_CODEC } from "./route-map-codec.ts";
import {
  CURRENT,
  EARLY_XTD,
  EARLY_XTD_NAMES,
  outboxExpiresAt,
  pk,
  readerKeys,
  snapshotExpiresAt,
  type TransactItem,
  triggerItem,
} from "./route-map-items.ts";

/** Two sets of search fields alike (the reader items would be written unchanged). */
function sameFields(a: RouteMapSearchFields, b: RouteMapSearchFields): boolean {
  return (Object.keys(a) as Array<keyof RouteMapSearchFields>).every((key) => a[key] === b[key]);
}

export function routeMapWrites(tableName: string): Pick<RouteMapRepository, "write" | "putTrigger"> {
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
            // The message that made the change, as compact JSON (see core/route-map/provenance.ts).
            ...(change.snapshot.provenance ? { src: JSON.stringify(change.snapshot.provenance) } : {}),
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

  return {
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
  };
}
