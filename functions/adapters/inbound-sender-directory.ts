/**
 * Which carrier a sender address mails for: one lookup item per registered address in the
 * subscriptions table (`INBOUND_SENDER#<address>` / `CARRIER`, attribute carrierPrefix), written in
 * the same transaction as the carrier's settings, so finding the carrier is one GetItem (no Scan, no
 * index). Claiming an address another carrier holds cancels the whole write (InboundSenderTakenError).
 */
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand, type PutCommandInput, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { InboundSenderTakenError } from "../core/errors.ts";
import type { InboundSenderDirectory } from "../core/ports/inbound-mail.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";

const senderKey = (address: string) => ({ pk: `INBOUND_SENDER#${address}`, sk: "CARRIER" });

export function dynamoInboundSenderDirectory(
  tableName = config.table("subscriptions"),
): InboundSenderDirectory {
  return {
    async carrierOf(address) {
      const { Item } = await dynamo().send(new GetCommand({ TableName: tableName, Key: senderKey(address) }));
      return typeof Item?.carrierPrefix === "string" ? Item.carrierPrefix : null;
    },
  };
}

/**
 * Stores a carrier's settings item (`put`, whose Item carries `inboundSenders`) with its senders'
 * lookup items: new addresses claimed (unless another carrier holds them), addresses it no longer
 * lists released. Without senders before or after, a plain Put as always.
 */
export async function putWithInboundSenders(
  put: PutCommandInput & { TableName: string },
  prefix: string,
  senders: readonly string[],
): Promise<void> {
  const { Item: previous } = await dynamo().send(
    new GetCommand({ TableName: put.TableName, Key: { pk: put.Item?.pk, sk: put.Item?.sk } }),
  );
  const before = new Set<string>((previous?.inboundSenders as string[] | undefined) ?? []);
  const released = [...before].filter((address) => !senders.includes(address));
  if (senders.length === 0 && released.length === 0) {
    await dynamo().send(new PutCommand(put));
    return;
  }
  const claims = senders.map((address) => ({
    Put: {
      TableName: put.TableName,
      Item: { ...senderKey(address), carrierPrefix: prefix, address },
      ConditionExpression: "attribute_not_exists(pk) OR carrierPrefix = :me",
      ExpressionAttributeValues: { ":me": prefix },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  }));
  const releases = released.map((address) => ({
    Delete: {
      TableName: put.TableName,
      Key: senderKey(address),
      ConditionExpression: "attribute_not_exists(pk) OR carrierPrefix = :me",
      ExpressionAttributeValues: { ":me": prefix },
    },
  }));
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: put.TableName, Item: put.Item } }, ...claims, ...releases],
      }),
    );
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    for (const [index, address] of senders.entries()) {
      const reason = reasons[index + 1];
      if (reason?.Code !== "ConditionalCheckFailed") continue;
      // The holder, as DynamoDB returns it ({ S: "057" }).
      const owner: unknown = reason.Item?.carrierPrefix;
      const held = typeof owner === "object" && owner !== null && "S" in owner ? owner.S : owner;
      throw new InboundSenderTakenError(address, typeof held === "string" ? held : "another");
    }
    throw error;
  }
}
