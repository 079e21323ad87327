/**
 * Suppressed e-mail addresses in the Subscriptions table (EmailSuppressionList port), written when SES
 * reports a permanent bounce or a complaint (the ses-feedback function), read before every e-mail
 * delivery:
 *   SUPPRESSED#<normalised address> / SUPPRESSED   reason, SES detail, when, the e-mail's MessageId
 * Kept until an operator deletes the item (README, "Bounces and complaints").
 */
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { EmailSuppression, EmailSuppressionList } from "../core/ports/notifications.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";

export const suppressionKey = (address: string) => ({ pk: `SUPPRESSED#${address}`, sk: "SUPPRESSED" });

export function dynamoEmailSuppressionList(tableName = config.table("subscriptions")): EmailSuppressionList {
  return {
    async get(address) {
      const { Item } = await dynamo().send(
        new GetCommand({ TableName: tableName, Key: suppressionKey(address), ConsistentRead: true }),
      );
      return (Item?.data as EmailSuppression | undefined) ?? null;
    },
    async suppress(suppression) {
      await dynamo().send(
        new PutCommand({
          TableName: tableName,
          Item: { ...suppressionKey(suppression.address), data: suppression },
        }),
      );
    },
  };
}
