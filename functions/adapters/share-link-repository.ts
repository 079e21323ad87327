/**
 * Route-map share links (ShareLinkRepository port) in the Deliveries table, whose TTL attribute
 * `expiresAt` (epoch seconds) removes them some time after they expire:
 *   SHARELINK#<sha256 of the token, hex>     / LINK    the link, found by its token (the only key)
 *   SHARELINKS#<forwarderId>#<11-digit AWB>  / <id>    the forwarder's list entry (with the token hash,
 *                                                      so a revocation deletes both, and its slot)
 *   SHARESLOTS#<forwarderId>#<11-digit AWB>  / <nn>    a place among the AWB's active links a link
 *                                                      made under limits holds (linkId, claimedAt)
 *   SHARELINKDAY#<forwarderId>               / <day>   links made under limits that UTC day (count)
 * The token itself is never stored. The link and its list entry are written and deleted in one
 * transaction.
 *
 * Limits, exact under concurrent creations without a transaction two requests could collide in: a
 * link made under limits first claims one of the AWB's `activePerAwb` slots with a conditional put
 * (free: never used, or held by a link that is no longer active and not being made right now), then
 * counts itself into its day with a conditional update (below `perDay`), then is stored; a refusal
 * after the claim gives the claim back. Links made before the limits existed hold no slot.
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { awbKey } from "../core/awb.ts";
import type { AwbId } from "../core/carrier-messages/types.ts";
import { WriteConflictError } from "../core/errors.ts";
import type {
  ShareLink,
  ShareLinkCreation,
  ShareLinkLimits,
  ShareLinkRepository,
} from "../core/ports/share-links.ts";
import { isActive } from "../core/route-map/share-links.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";
import { shareTokenHash } from "./share-token-hash.ts";

/** The lookup key of a token: its SHA-256 (hex). */
export { shareTokenHash };

const linkKey = (tokenHash: string) => ({ pk: `SHARELINK#${tokenHash}`, sk: "LINK" });
const listPk = (forwarderId: string, awb: AwbId) => `SHARELINKS#${forwarderId}#${awbKey(awb)}`;
const slotsPk = (forwarderId: string, awb: AwbId) => `SHARESLOTS#${forwarderId}#${awbKey(awb)}`;
const slotSk = (slot: number) => String(slot).padStart(4, "0");
const dayKey = (forwarderId: string, day: string) => ({ pk: `SHARELINKDAY#${forwarderId}`, sk: day });
const ttlOf = (link: ShareLink) => Math.ceil(Date.parse(link.expiresAt) / 1000);

/** A claimed slot whose link is not listed yet is being made: kept this long before it counts as free. */
const CLAIM_GRACE_MS = 30_000;
/** Rounds of claiming a slot when concurrent creations take the one picked. */
const CLAIM_ROUNDS = 6;

interface SlotItem {
  sk: string;
  linkId: string;
  claimedAt: string;
}

export function dynamoShareLinkRepository(tableName = config.table("deliveries")): ShareLinkRepository {
  const db = () => dynamo();

  async function queryAll(pk: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": pk },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  async function store(link: ShareLink, token: string, slot: number | null): Promise<void> {
    const tokenHash = shareTokenHash(token);
    const expiresAt = ttlOf(link);
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...linkKey(tokenHash), data: link, expiresAt },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: {
                pk: listPk(link.owner.forwarderId, link.awb),
                sk: link.id,
                data: link,
                tokenHash,
                expiresAt,
                ...(slot === null ? {} : { slot }),
              },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
  }

  /** Free slots below the limit: never used, or held by a link no longer active and not being made. */
  async function freeSlots(
    link: ShareLink,
    limit: number,
  ): Promise<Array<{ slot: number; heldBy: string | null }>> {
    const { forwarderId } = link.owner;
    const [slots, entries] = await Promise.all([
      queryAll(slotsPk(forwarderId, link.awb)),
      queryAll(listPk(forwarderId, link.awb)),
    ]);
    const active = new Set(
      entries.filter((entry) => isActive(entry.data as ShareLink, link.createdAt)).map((entry) => entry.sk),
    );
    const held = new Map((slots as unknown as SlotItem[]).map((item) => [Number(item.sk), item]));
    const free: Array<{ slot: number; heldBy: string | null }> = [];
    for (let slot = 0; slot < limit; slot++) {
      const item = held.get(slot);
      if (!item) free.push({ slot, heldBy: null });
      else if (
        !active.has(item.linkId) &&
        Date.parse(link.createdAt) - Date.parse(item.claimedAt) >= CLAIM_GRACE_MS
      )
        free.push({ slot, heldBy: item.linkId });
    }
    return free;
  }

  /** Takes the slot for the link if it is still as seen (free, or held by that stale link). */
  async function claim(link: ShareLink, slot: number, heldBy: string | null): Promise<boolean> {
    try {
      await db().send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: slotsPk(link.owner.forwarderId, link.awb),
            sk: slotSk(slot),
            linkId: link.id,
            claimedAt: link.createdAt,
            expiresAt: ttlOf(link),
          },
          ...(heldBy === null
            ? { ConditionExpression: "attribute_not_exists(pk)" }
            : { ConditionExpression: "linkId = :held", ExpressionAttributeValues: { ":held": heldBy } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Gives a slot back, unless another link holds it by now. */
  async function release(forwarderId: string, awb: AwbId, slot: number, linkId: string): Promise<void> {
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName,
          Key: { pk: slotsPk(forwarderId, awb), sk: slotSk(slot) },
          ConditionExpression: "linkId = :id",
          ExpressionAttributeValues: { ":id": linkId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** Counts the link into its UTC day, unless the day already has `perDay`; false when it has. */
  async function countIntoDay(link: ShareLink, perDay: number, delta: 1 | -1): Promise<boolean> {
    const day = link.createdAt.slice(0, 10);
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName,
          Key: dayKey(link.owner.forwarderId, day),
          UpdateExpression: "ADD #count :delta SET expiresAt = :ttl",
          ...(delta === 1 ? { ConditionExpression: "attribute_not_exists(#count) OR #count < :max" } : {}),
          ExpressionAttributeNames: { "#count": "count" },
          ExpressionAttributeValues: {
            ":delta": delta,
            // Kept a day after the day it counts.
            ":ttl": Math.ceil(Date.parse(`${day}T00:00:00Z`) / 1000) + 2 * 86_400,
            ...(delta === 1 ? { ":max": perDay } : {}),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async function createUnderLimits(
    link: ShareLink,
    token: string,
    limits: ShareLinkLimits,
  ): Promise<ShareLinkCreation> {
    const { forwarderId } = link.owner;
    for (let round = 1; round <= CLAIM_ROUNDS; round++) {
      const free = await freeSlots(link, limits.activePerAwb);
      if (free.length === 0) return "active-per-awb";
      // A random free slot: concurrent creations mostly pick different ones.
      const pick = free[Math.floor(Math.random() * free.length)] ?? free[0];
      if (!pick || !(await claim(link, pick.slot, pick.heldBy))) continue;
      if (!(await countIntoDay(link, limits.perDay, 1))) {
        await release(forwarderId, link.awb, pick.slot, link.id);
        return "per-day";
      }
      try {
        await store(link, token, pick.slot);
      } catch (error) {
        await release(forwarderId, link.awb, pick.slot, link.id).catch(() => undefined);
        await countIntoDay(link, limits.perDay, -1).catch(() => undefined);
        throw error;
      }
      return "created";
    }
    // Every round lost its slot to concurrent creations: the caller may retry (409 with Retry-After).
    throw new WriteConflictError(link.awb);
  }

  return {
    async create(link, token, limits) {
      if (limits) return createUnderLimits(link, token, limits);
      await store(link, token, null);
      return "created";
    },
    async findByToken(token) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: linkKey(shareTokenHash(token)), ConsistentRead: true }),
      );
      return (Item?.data as ShareLink | undefined) ?? null;
    },
    async listFor(forwarderId, awb) {
      return (await queryAll(listPk(forwarderId, awb))).map((item) => item.data as ShareLink);
    },
    async revoke(forwarderId, awb, id) {
      const key = { pk: listPk(forwarderId, awb), sk: id };
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
      );
      if (!Item) return false;
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              { Delete: { TableName: tableName, Key: key, ConditionExpression: "attribute_exists(pk)" } },
              { Delete: { TableName: tableName, Key: linkKey(Item.tokenHash as string) } },
            ],
          }),
        );
      } catch (error) {
        // Revoked meanwhile by a concurrent request.
        if (!isConditionFailure(error)) throw error;
        return false;
      }
      if (typeof Item.slot === "number") await release(forwarderId, awb, Item.slot, id);
      return true;
    },
  };
}
