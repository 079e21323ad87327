/**
 * The inbound mail logs, in the Deliveries table (logs that expire): a carrier's under
 * `INBOUND#<prefix>`, the unknown senders' under `INBOUND#UNKNOWN-SENDER`, sorted by
 * `<receivedAt>#<messageId>` and read newest first. One item per mail (a retried invocation finds
 * it: "duplicate"). Entries expire with the raw mail, 30 days after receipt (TTL expiresAt).
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { INBOUND_MAIL_RETENTION_DAYS } from "../contracts/inbound-mail.ts";
import type { InboundMailEntry, InboundMailLog } from "../core/ports/inbound-mail.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";

const logPk = (carrierPrefix: string | null) =>
  carrierPrefix === null ? "INBOUND#UNKNOWN-SENDER" : `INBOUND#${carrierPrefix}`;

/** The page cursor: the last listed sort key, base64url (opaque to callers). */
const encodeCursor = (sk: string) => Buffer.from(sk, "utf8").toString("base64url");
const decodeCursor = (cursor: string | null): string | null =>
  cursor === null ? null : Buffer.from(cursor, "base64url").toString("utf8") || null;

export function dynamoInboundMailLog(tableName = config.table("deliveries")): InboundMailLog {
  return {
    async record(entry) {
      const expiresAt =
        Math.floor(Date.parse(entry.receivedAt) / 1000) + INBOUND_MAIL_RETENTION_DAYS * 24 * 3600;
      try {
        await dynamo().send(
          new PutCommand({
            TableName: tableName,
            Item: {
              pk: logPk(entry.carrierPrefix),
              sk: `${entry.receivedAt}#${entry.messageId}`,
              entry: JSON.stringify(entry),
              expiresAt,
            },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        );
        return "recorded";
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return "duplicate";
        throw error;
      }
    },
    async list(carrierPrefix, page) {
      const after = decodeCursor(page.cursor);
      const result = await dynamo().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": logPk(carrierPrefix) },
          ScanIndexForward: false,
          Limit: page.limit,
          ...(after === null ? {} : { ExclusiveStartKey: { pk: logPk(carrierPrefix), sk: after } }),
        }),
      );
      const items = (result.Items ?? []).map((item) => JSON.parse(item.entry as string) as InboundMailEntry);
      const last = result.LastEvaluatedKey?.sk;
      return { items, next: typeof last === "string" ? encodeCursor(last) : null };
    },
  };
}
