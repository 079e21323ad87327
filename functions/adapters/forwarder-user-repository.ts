/**
 * Which forwarder each person signs in for (ForwarderUserRepository port), in the Tenants table next to
 * the tenant records (functions/adapters/tenant-repository.ts).
 *
 * Layout (pk / sk, all strings):
 *   USER#<userId>                 / USER             the link, looked up by user id (the token trigger)
 *   TENANT#forwarder#<forwarderId> / USER#<userId>    its copy under the forwarder (listing)
 *   USEREMAIL#<email>             / USEREMAIL        one user per e-mail address
 * The three are written and deleted together in one transaction. The e-mail is stored lower-cased.
 */
import {
  GetCommand,
  type NativeAttributeValue,
  QueryCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import { ForwarderUserExistsError } from "../core/errors.ts";
import type { ForwarderUser, ForwarderUserRepository } from "../core/ports/tenants.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

type Item = Record<string, NativeAttributeValue>;

const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: "USER" });
const forwarderPk = (forwarderId: string) => `TENANT#forwarder#${forwarderId}`;
const USER_SK_PREFIX = "USER#";
const listedKey = (user: ForwarderUser) => ({
  pk: forwarderPk(user.forwarderId),
  sk: `${USER_SK_PREFIX}${user.userId}`,
});
const emailKey = (email: string) => ({ pk: `USEREMAIL#${email}`, sk: "USEREMAIL" });

const attributesOf = (user: ForwarderUser): Item => ({
  userId: user.userId,
  email: user.email,
  forwarderId: user.forwarderId,
  createdAt: user.createdAt,
});

const userOf = (item: Item): ForwarderUser => ({
  userId: item.userId as string,
  email: item.email as string,
  forwarderId: item.forwarderId as string,
  createdAt: item.createdAt as string,
});

export function dynamoForwarderUserRepository(tableName = config.table("tenants")): ForwarderUserRepository {
  const db = () => dynamo();
  return {
    async getUser(userId) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: userKey(userId), ConsistentRead: true }),
      );
      return Item ? userOf(Item as Item) : null;
    },

    async createUser(user) {
      const attributes = attributesOf(user);
      const absent = "attribute_not_exists(pk)";
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...userKey(user.userId), ...attributes },
                  ConditionExpression: absent,
                },
              },
              { Put: { TableName: tableName, Item: { ...listedKey(user), ...attributes } } },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...emailKey(user.email), userId: user.userId },
                  ConditionExpression: absent,
                },
              },
            ],
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw new ForwarderUserExistsError(user.email);
        throw error;
      }
    },

    async listUsers(forwarderId) {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const result = await db().send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
            ExpressionAttributeValues: { ":pk": forwarderPk(forwarderId), ":sk": USER_SK_PREFIX },
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        items.push(...((result.Items as Item[] | undefined) ?? []));
        start = result.LastEvaluatedKey;
      } while (start);
      return items.map(userOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async deleteUser(user) {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: userKey(user.userId) } },
            { Delete: { TableName: tableName, Key: listedKey(user) } },
            { Delete: { TableName: tableName, Key: emailKey(user.email) } },
          ],
        }),
      );
    },
  };
}
