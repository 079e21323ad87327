/** Participating carriers, kept in the subscriptions table under `CARRIER#<prefix>`. */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { CarrierPlanningSettings, CarrierSettings, OneRecordSettings } from "../core/carriers.ts";
import type { CarrierRepository } from "../core/ports/carriers.ts";
import type { StatusRequestSettings } from "../core/status-requests.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { putWithInboundSenders } from "./inbound-sender-directory.ts";

const key = (prefix: string) => ({ pk: `CARRIER#${prefix}`, sk: "SETTINGS" });

export function dynamoCarrierRepository(tableName = config.table("subscriptions")): CarrierRepository {
  return {
    async get(prefix) {
      const { Item } = await dynamo().send(new GetCommand({ TableName: tableName, Key: key(prefix) }));
      if (!Item) return null;
      return {
        airlinePrefix: prefix,
        name: Item.name as string,
        qualityProgram: Item.qualityProgram as boolean,
        xtd: Item.xtd as boolean,
        updatedAt: Item.updatedAt as string,
        planning: (Item.planning as CarrierPlanningSettings | undefined) ?? null,
        statusRequests: (Item.statusRequests as StatusRequestSettings | undefined) ?? null,
        inboundSenders: (Item.inboundSenders as string[] | undefined) ?? null,
        oneRecord: (Item.oneRecord as OneRecordSettings | undefined) ?? null,
      };
    },
    async put(carrier) {
      // The settings item with its inbound senders' lookup items (inbound-sender-directory.ts).
      await putWithInboundSenders(
        {
          TableName: tableName,
          Item: {
            ...key(carrier.airlinePrefix),
            name: carrier.name,
            qualityProgram: carrier.qualityProgram,
            xtd: carrier.xtd,
            updatedAt: carrier.updatedAt,
            planning: carrier.planning ?? undefined,
            statusRequests: carrier.statusRequests ?? undefined,
            inboundSenders: carrier.inboundSenders?.length ? [...carrier.inboundSenders] : undefined,
            // The bearer token is protected by the table's customer-managed KMS key, never logged.
            oneRecord: carrier.oneRecord ?? undefined,
          },
        },
        carrier.airlinePrefix,
        carrier.inboundSenders ?? [],
      );
    },
  };
}

/**
 * Carrier settings change rarely and are read on every carrier message: keep them per container for
 * `ttlMs` (a support change reaches every container within that time). Requests arriving together
 * share one read (a burst of messages does not become a burst of reads); a failed read is not kept.
 */
export function cachedCarrierDirectory(
  source: Pick<CarrierRepository, "get">,
  ttlMs = 60_000,
  now: () => number = Date.now,
): Pick<CarrierRepository, "get"> {
  const cache = new Map<string, { value: Promise<CarrierSettings | null>; expiresAt: number }>();
  return {
    get(prefix) {
      const hit = cache.get(prefix);
      if (hit && hit.expiresAt > now()) return hit.value;
      const entry = { value: source.get(prefix), expiresAt: Number.POSITIVE_INFINITY };
      cache.set(prefix, entry);
      entry.value.then(
        () => {
          entry.expiresAt = now() + ttlMs;
        },
        () => {
          if (cache.get(prefix) === entry) cache.delete(prefix);
        },
      );
      return entry.value;
    },
  };
}
