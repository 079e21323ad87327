/**
 * Confirmations of NotifyTo addresses in the Subscriptions table (EmailConfirmationRepository port):
 *   EMAILCONFIRM#<forwarderId>#<address> / CONFIRMATION   the confirmation (status, current token hash)
 *   EMAILTOKEN#<sha256 of the token>      / TOKEN          its link: which confirmation it confirms
 * Only the token's hash is stored; a new link replaces the old one's item in the same transaction.
 */
import {
  DeleteCommand,
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type { EmailConfirmation } from "../core/notifications/index.ts";
import type { EmailConfirmationRepository } from "../core/ports/notifications.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

const confirmationKey = (forwarderId: string, address: string) => ({
  pk: `EMAILCONFIRM#${forwarderId}#${address}`,
  sk: "CONFIRMATION",
});
const tokenKey = (tokenHash: string) => ({ pk: `EMAILTOKEN#${tokenHash}`, sk: "TOKEN" });

export function dynamoEmailConfirmationRepository(
  tableName = config.table("subscriptions"),
): EmailConfirmationRepository {
  const db = () => dynamo();
  async function get(forwarderId: string, address: string): Promise<EmailConfirmation | null> {
    const { Item } = await db().send(
      new GetCommand({
        TableName: tableName,
        Key: confirmationKey(forwarderId, address),
        ConsistentRead: true,
      }),
    );
    return (Item?.data as EmailConfirmation | undefined) ?? null;
  }
  return {
    get,
    async findByTokenHash(tokenHash) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: tokenKey(tokenHash), ConsistentRead: true }),
      );
      if (!Item) return null;
      return get(Item.forwarderId as string, Item.address as string);
    },
    async putPending(confirmation) {
      const old = await get(confirmation.forwarderId, confirmation.address);
      const items: NonNullable<TransactWriteCommandInput["TransactItems"]> = [
        {
          Put: {
            TableName: tableName,
            Item: { ...confirmationKey(confirmation.forwarderId, confirmation.address), data: confirmation },
            // Never turns a confirmed address back into a pending one.
            ConditionExpression: "attribute_not_exists(pk) OR #data.#status = :pending",
            ExpressionAttributeNames: { "#data": "data", "#status": "status" },
            ExpressionAttributeValues: { ":pending": "pending" },
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...tokenKey(confirmation.tokenHash ?? ""),
              forwarderId: confirmation.forwarderId,
              address: confirmation.address,
            },
          },
        },
      ];
      if (old?.tokenHash && old.tokenHash !== confirmation.tokenHash)
        items.push({ Delete: { TableName: tableName, Key: tokenKey(old.tokenHash) } });
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
      } catch (error) {
        // Confirmed meanwhile: nothing to ask any more.
        if (!isConditionFailure(error)) throw error;
      }
    },
    async confirm(confirmation, tokenHash) {
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...confirmationKey(confirmation.forwarderId, confirmation.address),
                    data: confirmation,
                  },
                  ConditionExpression: "#data.#hash = :hash",
                  ExpressionAttributeNames: { "#data": "data", "#hash": "tokenHash" },
                  ExpressionAttributeValues: { ":hash": tokenHash },
                },
              },
              { Delete: { TableName: tableName, Key: tokenKey(tokenHash) } },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // A stale link item (its confirmation moved on): drop it.
        await db().send(new DeleteCommand({ TableName: tableName, Key: tokenKey(tokenHash) }));
        return false;
      }
    },
  };
}
