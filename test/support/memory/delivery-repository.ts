/**
 * DeliveryRepository in memory, with the DynamoDB adapter's semantics: create is idempotent on the
 * delivery id, the attempt log keeps the last 20 entries with truncated details, lists are newest
 * first. For use-case tests and benchmarks.
 */

import {
  MAX_ATTEMPT_DETAIL,
  MAX_LOGGED_ATTEMPTS,
} from "../../../functions/adapters/delivery-record-limits.ts";
import type { DeliveryRecord, DeliveryRepository } from "../../../functions/core/ports/notifications.ts";

export interface MemoryDeliveryRepository extends DeliveryRepository {
  readonly records: Map<string, DeliveryRecord>;
}

const copy = <T>(value: T): T => structuredClone(value);

export function memoryDeliveryRepository(): MemoryDeliveryRepository {
  const records = new Map<string, DeliveryRecord>();
  const repo: MemoryDeliveryRepository = {
    records,
    async create(record) {
      if (records.has(record.deliveryId)) return false;
      records.set(
        record.deliveryId,
        copy({ ...record, attempts: record.attempts.slice(-MAX_LOGGED_ATTEMPTS) }),
      );
      return true;
    },
    async get(deliveryId) {
      const found = records.get(deliveryId);
      return found ? copy(found) : null;
    },
    async recordAttempt(deliveryId, attempt, status) {
      const found = records.get(deliveryId);
      if (!found) throw new Error(`no delivery record ${deliveryId}`);
      const detail =
        attempt.detail.length > MAX_ATTEMPT_DETAIL
          ? `${attempt.detail.slice(0, MAX_ATTEMPT_DETAIL - 1)}…`
          : attempt.detail;
      found.attempts = [...found.attempts, { ...attempt, detail }].slice(-MAX_LOGGED_ATTEMPTS);
      found.status = status;
      found.updatedAt = attempt.at;
    },
    async listForSubscription(kind, subscriptionId, page) {
      const all = [...records.values()]
        .filter((record) => record.subscriptionKind === kind && record.subscriptionId === subscriptionId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.deliveryId.localeCompare(a.deliveryId));
      const start = (page.page - 1) * page.pageSize;
      return { items: all.slice(start, start + page.pageSize).map(copy), total: all.length };
    },
    async latestForSubscription(kind, subscriptionId) {
      const [newest] = (await repo.listForSubscription(kind, subscriptionId, { page: 1, pageSize: 1 })).items;
      return newest ?? null;
    },
    async findByEmailMessageId(messageId) {
      const found = [...records.values()].find((record) =>
        record.attempts.some((attempt) => attempt.emailMessageId === messageId),
      );
      return found ? copy(found) : null;
    },
  };
  return repo;
}
