/**
 * Route-map share links (ShareLinkRepository port) in the Deliveries table, whose TTL attribute
 * `expiresAt` (epoch seconds) removes them some time after they expire:
 *   SHARELINK#<sha256 of the token, hex>     / LINK   the link, found by its token (the only key)
 *   SHARELINKS#<forwarderId>#<11-digit AWB>  / <id>   the forwarder's list entry (with the token hash,
 *                                                     so a revocation deletes both)
 * The token itself is never stored. Both items are written and deleted in one transaction.
 */
import { createHash } from "node:crypto";
import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { awbKey } from "../core/awb.ts";
import type { AwbId } from "../core/carrier-messages/types.ts";
import type { ShareLink, ShareLinkRepository } from "../core/ports/share-links.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

/** The lookup key of a token: its SHA-256 (hex). */
export const shareTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

const linkKey = (tokenHash: string) => ({ pk: `SHARELINK#${tokenHash}`, sk: "LINK" });
const listPk = (forwarderId: string, awb: AwbId) => `SHARELINKS#${forwarderId}#${awbKey(awb)}`;
const ttlOf = (link: ShareLink) => Math.ceil(Date.parse(link.expiresAt) / 1000);

export function dynamoShareLinkRepository(tableName = config.table("deliveries")): ShareLinkRepository {
  const db = () => dynamo();
  return {
    async create(link, token) {
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
                },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
          ],
        }),
      );
    },
    async findByToken(token) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: linkKey(shareTokenHash(token)), ConsistentRead: true }),
      );
      return (Item?.data as ShareLink | undefined) ?? null;
    },
    async listFor(forwarderId, awb) {
      const links: ShareLink[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db().send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": listPk(forwarderId, awb) },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) links.push(item.data as ShareLink);
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return links;
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
        return true;
      } catch (error) {
        // Revoked meanwhile by a concurrent request.
        if (!isConditionFailure(error)) throw error;
        return false;
      }
    },
  };
}
