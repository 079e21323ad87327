/** Issue 11 point 21: identical rules, one e-mail per address and event, confirmed NotifyTo addresses. */
import { describe, expect, it } from "vitest";
import { ConfirmationLinkError, DuplicateRuleError } from "../../../functions/core/errors.ts";
import {
  confirmationToRequest,
  confirmWithToken,
  type DeliveryTarget,
  hashConfirmationToken,
  identicalRule,
  onePerAddress,
} from "../../../functions/core/notifications/index.ts";
import { confirmEmailAddress } from "../../../functions/core/use-cases/confirm-email-address.ts";
import { createNotificationRule } from "../../../functions/core/use-cases/create-notification-rule.ts";
import { deliverJob } from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import {
  emailRule,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
  urlRule,
} from "../../adapters/pipeline/fakes.ts";
import { memoryEmailConfirmationRepository } from "../../support/memory/email-confirmation-repository.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";
import { emailRuleBody, makeEvent, OWNER } from "./helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
const TOKEN = "tok-0123456789abcdefghijklmnopqrstuvwxyzABCD";
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

describe("identicalRule", () => {
  it("finds a twin: same target, events as a set, address case-insensitive; Enabled does not count", () => {
    const rule = emailRule(1, OWNER, { Event: "DEP,ARR", NotifyTo: "ops@x.example" });
    expect(
      identicalRule(emailRule(2, OWNER, { Event: "ARR,DEP", NotifyTo: "OPS@x.example" }), [rule])?.id,
    ).toBe(1);
    expect(
      identicalRule(emailRule(2, OWNER, { Event: "DEP,ARR", NotifyTo: "ops@x.example", Enabled: false }), [
        rule,
      ])?.id,
    ).toBe(1);
    expect(
      identicalRule(emailRule(2, OWNER, { Event: "DEP", NotifyTo: "ops@x.example" }), [rule]),
    ).toBeNull();
    expect(
      identicalRule(emailRule(2, OWNER, { Event: "DEP,ARR", NotifyTo: "other@x.example" }), [rule]),
    ).toBeNull();
    expect(identicalRule(urlRule(2, OWNER, { Event: "DEP,ARR" }), [rule])).toBeNull();
    // A rule is not its own twin (an update keeping its id).
    expect(identicalRule(rule, [rule])).toBeNull();
  });
});

describe("onePerAddress", () => {
  const email = (id: number, to: string) =>
    ({ targetKind: "email", emailTo: to, subscriptionId: id }) as unknown as DeliveryTarget;
  it("keeps the first e-mail target per address (any case); other targets untouched", () => {
    const webhook = { targetKind: "webhook", subscriptionId: 9 } as unknown as DeliveryTarget;
    const kept = onePerAddress([
      email(1, "a@x.example"),
      webhook,
      email(2, "A@x.example"),
      email(3, "b@x.example"),
    ]);
    expect(kept.map((t) => t.subscriptionId)).toEqual([1, 9, 3]);
  });

  it("the matcher queues one e-mail job for three rules naming one address", async () => {
    const subscriptions = new FakeSubscriptions();
    for (const [id, events] of [
      [1, "DEP"],
      [2, "DEP,ARR"],
      [3, "DEP,RCF"],
    ] as const)
      await subscriptions.putRule(emailRule(id, OWNER, { Event: events, NotifyTo: "ops@x.example" }));
    const queue = new RecordingQueue();
    const result = await matchEvent(
      { subscriptions, deliveries: new FakeDeliveries(), queue },
      { event: makeEvent(), now: NOW },
    );
    expect(result.enqueued).toHaveLength(1);
  });
});

describe("confirmations", () => {
  it("a new address gets a pending confirmation; a pending one is not asked again within a day", () => {
    const first = confirmationToRequest(null, {
      forwarderId: "F",
      address: "Ops@X.example",
      token: TOKEN,
      now: NOW,
    });
    expect(first).toMatchObject({
      address: "ops@x.example",
      status: "pending",
      tokenHash: hashConfirmationToken(TOKEN),
    });
    if (!first) throw new Error("no confirmation");
    const again = { forwarderId: "F", address: "ops@x.example", token: "other", now: later(3600) };
    expect(confirmationToRequest(first, again)).toBeNull();
    expect(confirmationToRequest(first, { ...again, now: later(25 * 3600) })?.tokenHash).toBe(
      hashConfirmationToken("other"),
    );
    expect(
      confirmationToRequest({ ...first, status: "confirmed" }, { ...again, now: later(30 * 86400) }),
    ).toBeNull();
  });

  it("a link confirms once, with its own token, within 7 days", () => {
    const pending = confirmationToRequest(null, {
      forwarderId: "F",
      address: "a@x.example",
      token: TOKEN,
      now: NOW,
    });
    expect(confirmWithToken(pending, TOKEN, later(60))).toMatchObject({
      ok: true,
      confirmation: { status: "confirmed", tokenHash: null, confirmedAt: later(60) },
    });
    expect(confirmWithToken(pending, "wrong", later(60))).toEqual({ ok: false, reason: "unknown" });
    expect(confirmWithToken(pending, TOKEN, later(8 * 86400))).toEqual({ ok: false, reason: "expired" });
  });

  it("creating an Email rule mails one link; following it confirms; deliveries wait for it", async () => {
    const subscriptions = memorySubscriptionRepository();
    const confirmations = memoryEmailConfirmationRepository();
    const email = new RecordingEmail();
    const deps = {
      subscriptions,
      limits: { maxRules: 10, maxWebhooks: 10 },
      addressConfirmation: { confirmations, email },
    } as unknown as Parameters<typeof createNotificationRule>[0];
    const owner = OWNER;
    const request = emailRuleBody({ NotifyTo: "ops@x.example", Event: "DEP" }) as never;
    const link = { token: TOKEN, baseUrl: "https://api.example" };
    const rule = await createNotificationRule(deps, { owner, request, now: NOW, confirmationLink: link });
    await expect(
      createNotificationRule(deps, { owner, request, now: NOW, confirmationLink: link }),
    ).rejects.toBeInstanceOf(DuplicateRuleError);
    expect(email.sent).toHaveLength(1);
    expect(email.sent[0]?.text).toContain(`https://api.example/email-confirmations/${TOKEN}`);

    // Before the confirmation the e-mail is parked, not sent.
    const queue = new RecordingQueue();
    const pipeline = {
      subscriptions,
      deliveries: new FakeDeliveries(),
      queue,
      retryScheduler: new RecordingScheduler(),
      http: new ScriptedPoster(),
      email,
      confirmations,
    };
    await matchEvent(pipeline, { event: makeEvent({ recordedAt: later(60) }), now: later(60) });
    const [job] = queue.jobs;
    if (!job) throw new Error("no job");
    const parked = await deliverJob(pipeline, { job, now: later(60), sentAtSeconds: 0, random: 0.5 });
    expect(parked).toMatchObject({ outcome: "skipped" });
    expect(parked.detail).toMatch(/not confirmed yet/);
    expect(email.sent).toHaveLength(1);

    // Confirming releases the parked alert: its next attempt goes back on the queue, once.
    const released = new RecordingQueue();
    const confirmDeps = { confirmations, subscriptions, deliveries: pipeline.deliveries, queue: released };
    await expect(
      confirmEmailAddress(confirmDeps, { token: "nope-0123456789abcdefghij", now: later(90) }),
    ).rejects.toBeInstanceOf(ConfirmationLinkError);
    const confirmed = await confirmEmailAddress(confirmDeps, { token: TOKEN, now: later(90) });
    expect(confirmed.held).toEqual({ released: 1, dropped: [] });
    expect(released.jobs).toEqual([{ ...job, attempt: 2 }]);
    await expect(confirmEmailAddress(confirmDeps, { token: TOKEN, now: later(91) })).rejects.toBeInstanceOf(
      ConfirmationLinkError,
    );
    expect(released.jobs).toHaveLength(1);
    const delivered = await deliverJob(pipeline, {
      job: released.jobs[0] ?? job,
      now: later(120),
      sentAtSeconds: 0,
      random: 0.5,
    });
    expect(delivered.outcome).toBe("delivered");
    expect(email.sent).toHaveLength(2);
    expect(rule.id).toBeGreaterThan(0);
  });
});
