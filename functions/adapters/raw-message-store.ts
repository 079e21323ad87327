/**
 * The raw messages kept for support, in the Deliveries table (logs that expire): one item per receipt,
 * `RAWMSG#<prefix>#<receiptId>` / `RAW` (its own partition, so a busy carrier's receipts spread over
 * the table's partitions), the body DEFLATE-compressed as a binary attribute (DynamoDB bills writes
 * per started KB: a Cargo-IMP status message stays one unit), gone 30 days after receipt (TTL
 * expiresAt; reads filter out an item the TTL has not deleted yet).
 */

import { deflateRawSync, inflateRawSync } from "node:zlib";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RawMessage, RawMessageStore } from "../core/ports/raw-messages.ts";
import type { ReceiptChannel } from "../core/route-map/provenance.ts";
import { dynamo } from "./aws-clients.ts";
import { nowMs } from "./clock.ts";
import { config } from "./config.ts";

/** How long a raw message is kept after its receipt. */
export const RAW_MESSAGE_RETENTION_DAYS = 30;

const key = (carrierPrefix: string, receiptId: string) => ({
  pk: `RAWMSG#${carrierPrefix}#${receiptId}`,
  sk: "RAW",
});

export function dynamoRawMessageStore(tableName = config.table("deliveries")): RawMessageStore {
  return {
    async put(message) {
      const expiresAt =
        Math.floor(Date.parse(message.receivedAt) / 1000) + RAW_MESSAGE_RETENTION_DAYS * 24 * 3600;
      await dynamo().send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...key(message.carrierPrefix, message.receiptId),
            channel: message.channel,
            receivedAt: message.receivedAt,
            contentType: message.contentType,
            bodyZ: deflateRawSync(Buffer.from(message.body, "utf8")),
            ...(message.fetchedFrom ? { fetchedFrom: message.fetchedFrom } : {}),
            expiresAt,
          },
        }),
      );
    },
    async get(carrierPrefix, receiptId) {
      const result = await dynamo().send(
        new GetCommand({ TableName: tableName, Key: key(carrierPrefix, receiptId) }),
      );
      const item = result.Item;
      if (!item || (item.expiresAt as number) <= Math.floor(nowMs() / 1000)) return null;
      return {
        carrierPrefix,
        receiptId,
        channel: item.channel as ReceiptChannel,
        receivedAt: item.receivedAt as string,
        contentType: item.contentType as string,
        body: inflateRawSync(item.bodyZ as Uint8Array).toString("utf8"),
        ...(typeof item.fetchedFrom === "string" ? { fetchedFrom: item.fetchedFrom } : {}),
      } satisfies RawMessage;
    },
  };
}
