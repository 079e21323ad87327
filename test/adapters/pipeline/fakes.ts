/**
 * Tiny in-memory stand-ins for the notification ports, used by the pipeline unit and adapter tests
 * (the fuller in-memory repositories of use-case tests and benchmarks are in test/support/memory).
 */
import * as v from "valibot";
import {
  type CustomerEndpoint,
  markWebhookVerified,
  type NotificationRule,
  NotificationRuleRequestSchema,
  ruleFromRequest,
  type SubscriberIdentity,
  type Subscription,
  subscriptionIndexKeys,
  type Webhook,
  WebhookRequestSchema,
  webhookFromRequest,
} from "../../../functions/core/notifications/index.ts";
import type {
  DeliveryAttempt,
  DeliveryJob,
  DeliveryJobQueue,
  DeliveryLane,
  DeliveryRecord,
  DeliveryRepository,
  DeliveryRetryScheduler,
  DeliveryStatus,
  EmailMessage,
  EmailSender,
  EmailSendResult,
  NotificationJob,
  OutboundPost,
  OutboundPoster,
  OutboundResult,
  Page,
  PageRequest,
  SubscriptionRepository,
} from "../../../functions/core/ports/notifications.ts";
import { emailRuleBody, urlRuleBody, webhookBody } from "../../unit/notifications/helpers.ts";

const clone = <T>(value: T): T => structuredClone(value);
const paged = <T>(items: T[], page: PageRequest): Page<T> => ({
  items: items.slice((page.page - 1) * page.pageSize, page.page * page.pageSize),
  total: items.length,
});

export class FakeSubscriptions implements SubscriptionRepository {
  readonly rules = new Map<string, NotificationRule>();
  readonly webhooks = new Map<string, Webhook>();
  readonly endpoints = new Map<string, CustomerEndpoint>();
  readonly lookups: string[][] = [];
  #ids = { rule: 0, webhook: 0 };

  async nextId(kind: "rule" | "webhook") {
    this.#ids[kind] += 1;
    return this.#ids[kind];
  }
  async putRule(rule: NotificationRule) {
    this.rules.set(`${rule.owner.forwarderId}/${rule.id}`, clone(rule));
  }
  async getRule(forwarderId: string, id: number) {
    const rule = this.rules.get(`${forwarderId}/${id}`);
    return rule ? clone(rule) : null;
  }
  async listRules(forwarderId: string, page: PageRequest) {
    return paged(
      [...this.rules.values()].filter((r) => r.owner.forwarderId === forwarderId),
      page,
    );
  }
  async deleteRule(forwarderId: string, id: number) {
    return this.rules.delete(`${forwarderId}/${id}`);
  }
  async putWebhook(webhook: Webhook) {
    this.webhooks.set(`${webhook.owner.forwarderId}/${webhook.id}`, clone(webhook));
  }
  async getWebhook(forwarderId: string, id: number) {
    const webhook = this.webhooks.get(`${forwarderId}/${id}`);
    return webhook ? clone(webhook) : null;
  }
  async listWebhooks(forwarderId: string, page: PageRequest) {
    return paged(
      [...this.webhooks.values()].filter((w) => w.owner.forwarderId === forwarderId),
      page,
    );
  }
  async deleteWebhook(forwarderId: string, id: number) {
    return this.webhooks.delete(`${forwarderId}/${id}`);
  }
  async countSubscriptions(forwarderId: string, kind: "rule" | "webhook") {
    const all = kind === "rule" ? [...this.rules.values()] : [...this.webhooks.values()];
    return all.filter((s) => s.owner.forwarderId === forwarderId).length;
  }
  async insertRule(draft: Omit<NotificationRule, "id">, limit: number) {
    if ((await this.countSubscriptions(draft.owner.forwarderId, "rule")) >= limit) return null;
    const rule = { ...draft, id: await this.nextId("rule") };
    await this.putRule(rule);
    return clone(rule);
  }
  async insertWebhook(draft: Omit<Webhook, "id">, limit: number) {
    if ((await this.countSubscriptions(draft.owner.forwarderId, "webhook")) >= limit) return null;
    const webhook = { ...draft, id: await this.nextId("webhook") };
    await this.putWebhook(webhook);
    return clone(webhook);
  }
  async findCandidates(indexKeys: readonly string[]) {
    this.lookups.push([...indexKeys]);
    const all: Subscription[] = [
      ...[...this.rules.values()].map((rule) => ({ kind: "rule" as const, rule: clone(rule) })),
      ...[...this.webhooks.values()].map((webhook) => ({
        kind: "webhook" as const,
        webhook: clone(webhook),
      })),
    ];
    return all.filter((s) => subscriptionIndexKeys(s).some((key) => indexKeys.includes(key)));
  }
  async putCustomerEndpoint(endpoint: CustomerEndpoint) {
    this.endpoints.set(endpoint.id, clone(endpoint));
  }
  async getCustomerEndpoint(id: string) {
    const endpoint = this.endpoints.get(id);
    return endpoint ? clone(endpoint) : null;
  }
  async updateCustomerEndpoint(endpoint: CustomerEndpoint) {
    if (!this.endpoints.has(endpoint.id)) return false;
    this.endpoints.set(endpoint.id, clone(endpoint));
    return true;
  }
  async deleteCustomerEndpoint(endpoint: CustomerEndpoint) {
    return this.endpoints.delete(endpoint.id);
  }
  async listCustomerEndpoints(page: PageRequest, forwarderId?: string) {
    return paged(
      [...this.endpoints.values()].filter((e) => forwarderId === undefined || e.forwarderId === forwarderId),
      page,
    );
  }
}

export class FakeDeliveries implements DeliveryRepository {
  readonly records = new Map<string, DeliveryRecord>();
  async create(record: DeliveryRecord) {
    if (this.records.has(record.deliveryId)) return false;
    this.records.set(record.deliveryId, clone(record));
    return true;
  }
  async get(deliveryId: string) {
    const record = this.records.get(deliveryId);
    return record ? clone(record) : null;
  }
  async recordAttempt(deliveryId: string, attempt: DeliveryAttempt, status: DeliveryStatus) {
    const record = this.records.get(deliveryId);
    if (!record) throw new Error(`no delivery ${deliveryId}`);
    record.attempts.push(clone(attempt));
    record.status = status;
    record.updatedAt = attempt.at;
  }
  async latestForSubscription(kind: "rule" | "webhook", subscriptionId: number) {
    const [newest] = (await this.listForSubscription(kind, subscriptionId, { page: 1, pageSize: 1 })).items;
    return newest ?? null;
  }
  async findByEmailMessageId(messageId: string) {
    const found = [...this.records.values()].find((r) =>
      r.attempts.some((attempt) => attempt.emailMessageId === messageId),
    );
    return found ? clone(found) : null;
  }
  async listForSubscription(kind: "rule" | "webhook", subscriptionId: number, page: PageRequest) {
    return paged(
      [...this.records.values()].filter(
        (r) => r.subscriptionKind === kind && r.subscriptionId === subscriptionId,
      ),
      page,
    );
  }
}

export class RecordingQueue implements DeliveryJobQueue {
  readonly sent: Array<{ jobs: DeliveryJob[]; delaySeconds: number | undefined }> = [];
  /** The lane of each `sent` entry (same index). */
  readonly lanes: DeliveryLane[] = [];
  failNext = 0;
  async enqueue(jobs: readonly DeliveryJob[], delaySeconds?: number, lane: DeliveryLane = "main") {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error("queue unavailable");
    }
    this.sent.push({ jobs: clone([...jobs]), delaySeconds });
    this.lanes.push(lane);
  }
  /** The notification jobs sent (status-request jobs are in `sent`). */
  get jobs(): NotificationJob[] {
    return this.sent
      .flatMap((batch) => batch.jobs)
      .filter((job): job is NotificationJob => job.kind !== "status-request");
  }
}

export class RecordingScheduler implements DeliveryRetryScheduler {
  readonly scheduled: Array<{ job: DeliveryJob; at: string }> = [];
  async scheduleRetry(job: DeliveryJob, at: string) {
    this.scheduled.push({ job: clone(job), at });
  }
}

/** Answers each POST with the next scripted result for its URL (the last one repeats). */
export class ScriptedPoster implements OutboundPoster {
  readonly requests: OutboundPost[] = [];
  readonly #scripts = new Map<string, OutboundResult[]>();
  script(url: string, ...results: OutboundResult[]) {
    this.#scripts.set(url, results);
    return this;
  }
  async post(request: OutboundPost): Promise<OutboundResult> {
    this.requests.push(clone(request));
    const script = this.#scripts.get(request.url) ?? [];
    return (script.length > 1 ? script.shift() : script[0]) ?? answer(200);
  }
}

export const answer = (status: number, headers: Record<string, string> = {}, body = ""): OutboundResult => ({
  kind: "response",
  status,
  headers,
  body,
  latencyMs: 12,
});

export class RecordingEmail implements EmailSender {
  readonly sent: EmailMessage[] = [];
  results: EmailSendResult[] = [];
  async send(message: EmailMessage): Promise<EmailSendResult> {
    this.sent.push(clone(message));
    return this.results.shift() ?? { kind: "sent", messageId: `m-${this.sent.length}`, latencyMs: 5 };
  }
}

// ---- subscriptions ---------------------------------------------------------------------------------

const SUBSCRIBED_AT = "2026-03-01T00:00:00Z";

export function emailRule(
  id: number,
  owner: SubscriberIdentity,
  body: Record<string, unknown> = {},
): NotificationRule {
  const request = v.parse(NotificationRuleRequestSchema, emailRuleBody(body));
  return ruleFromRequest(request, { id, owner, now: SUBSCRIBED_AT });
}

export function urlRule(id: number, owner: SubscriberIdentity, body: Record<string, unknown> = {}) {
  const request = v.parse(NotificationRuleRequestSchema, urlRuleBody(body));
  return ruleFromRequest(request, { id, owner, now: SUBSCRIBED_AT });
}

export function webhook(
  id: number,
  owner: SubscriberIdentity,
  body: Record<string, unknown> = {},
  verified = true,
): Webhook {
  const created = webhookFromRequest(v.parse(WebhookRequestSchema, webhookBody(body)), {
    id,
    owner,
    now: SUBSCRIBED_AT,
  });
  return verified ? markWebhookVerified(created, SUBSCRIBED_AT) : created;
}

export function endpoint(id: string, forwarderId: string, url: string): CustomerEndpoint {
  return {
    id,
    forwarderId,
    url,
    headerName: "apiKey",
    headerValue: "api-key-0123456789",
    createdAt: SUBSCRIBED_AT,
  };
}
