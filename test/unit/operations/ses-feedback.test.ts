/**
 * Issue 12 point 5: SES bounces and complaints. The feedback message as SNS delivers it to SQS is
 * read; a permanent bounce or a complaint suppresses the address and shows in the log of the delivery
 * that sent the e-mail (found by its SES MessageId, kept on the attempt); later alerts to the address
 * are logged "suppressed" and not sent, neither retried nor lost.
 */

import type { Context, SQSEvent } from "aws-lambda";
import { beforeEach, describe, expect, it } from "vitest";
import type { MetricPoint } from "../../../functions/adapters/metrics.ts";
import { emailFeedbackOf } from "../../../functions/adapters/ses-feedback-message.ts";
import { deliverJob } from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import { type EmailFeedback, sesFeedback } from "../../../functions/core/use-cases/ses-feedback.ts";
import { make as sesFeedbackHandler } from "../../../functions/handlers/queue/ses-feedback.ts";
import {
  emailRule,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
} from "../../adapters/pipeline/fakes.ts";
import { memoryEmailSuppressionList } from "../../support/memory/email-suppression-list.ts";
import { sesBounce, snsWrapped } from "../../support/ses-feedback.ts";
import { makeEvent, OWNER } from "../notifications/helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
const ADDRESS = "Ops@Forwarder.example";

describe("the feedback message", () => {
  it("reads a bounce wrapped by SNS, or raw, in event or notification form", () => {
    const expected: EmailFeedback = {
      kind: "bounce",
      emailMessageId: "ses-1",
      recipients: [{ address: ADDRESS, diagnostic: "smtp; 550 5.1.1 user unknown" }],
      bounceType: "Permanent",
      bounceSubType: "General",
      at: "2026-03-14T12:43:00.000Z",
    };
    expect(emailFeedbackOf(snsWrapped(sesBounce("ses-1", ADDRESS)), NOW)).toEqual(expected);
    expect(emailFeedbackOf(JSON.stringify(sesBounce("ses-1", ADDRESS)), NOW)).toEqual(expected);
    const { eventType: _, ...notification } = sesBounce("ses-1", ADDRESS);
    expect(emailFeedbackOf(snsWrapped({ ...notification, notificationType: "Bounce" }), NOW)).toEqual(
      expected,
    );
  });

  it("reads a complaint", () => {
    const complaint = {
      eventType: "Complaint",
      complaint: {
        complainedRecipients: [{ emailAddress: ADDRESS }],
        complaintFeedbackType: "abuse",
        timestamp: "2026-03-14T13:00:00.000Z",
      },
      mail: { messageId: "ses-2" },
    };
    expect(emailFeedbackOf(snsWrapped(complaint), NOW)).toEqual({
      kind: "complaint",
      emailMessageId: "ses-2",
      recipients: [{ address: ADDRESS }],
      complaintType: "abuse",
      at: "2026-03-14T13:00:00.000Z",
    });
  });

  it("is null for anything else: a delivery event, no message id, not JSON", () => {
    expect(emailFeedbackOf(snsWrapped({ eventType: "Delivery", mail: { messageId: "x" } }), NOW)).toBeNull();
    expect(emailFeedbackOf(snsWrapped({ ...sesBounce("", ADDRESS) }), NOW)).toBeNull();
    expect(emailFeedbackOf("not json", NOW)).toBeNull();
    expect(emailFeedbackOf(JSON.stringify({ Type: "Notification", Message: "{" }), NOW)).toBeNull();
  });
});

describe("bounces, complaints and later alerts", () => {
  let subscriptions: FakeSubscriptions;
  let deliveries: FakeDeliveries;
  let email: RecordingEmail;
  let queue: RecordingQueue;
  let suppressions: ReturnType<typeof memoryEmailSuppressionList>;
  let pipeline: Parameters<typeof deliverJob>[0] & Parameters<typeof matchEvent>[0];

  beforeEach(async () => {
    subscriptions = new FakeSubscriptions();
    deliveries = new FakeDeliveries();
    email = new RecordingEmail();
    queue = new RecordingQueue();
    suppressions = memoryEmailSuppressionList();
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP", NotifyTo: ADDRESS }));
    pipeline = {
      subscriptions,
      deliveries,
      queue,
      retryScheduler: new RecordingScheduler(),
      http: new ScriptedPoster(),
      email,
      suppressions,
    };
  });

  /** Matches one event and makes its first attempt; returns the job and the result. */
  async function alert(eventId: string) {
    const before = queue.jobs.length;
    await matchEvent(pipeline, { event: makeEvent({ eventId, recordedAt: NOW }), now: NOW });
    const job = queue.jobs[before];
    if (!job) throw new Error("no job");
    return { job, result: await deliverJob(pipeline, { job, now: NOW, sentAtSeconds: 0, random: 0.5 }) };
  }

  it("keeps the SES MessageId on the attempt that sent the e-mail", async () => {
    const { job, result } = await alert("E1");
    expect(result.outcome).toBe("delivered");
    const record = await deliveries.get(job.deliveryId);
    expect(record?.attempts).toEqual([
      expect.objectContaining({
        outcome: "delivered",
        emailMessageId: "m-1",
        detail: "accepted by SES as m-1",
      }),
    ]);
    expect((await deliveries.findByEmailMessageId("m-1"))?.deliveryId).toBe(job.deliveryId);
  });

  it("a permanent bounce suppresses the address and shows in the delivery's log, once", async () => {
    const { job } = await alert("E1");
    const feedback = emailFeedbackOf(snsWrapped(sesBounce("m-1", ADDRESS)), NOW);
    if (!feedback) throw new Error("unreadable");
    const result = await sesFeedback({ suppressions, deliveries }, { feedback, now: NOW });
    expect(result).toEqual({
      suppressed: ["ops@forwarder.example"],
      deliveryId: job.deliveryId,
      logged: true,
    });
    expect(await suppressions.get("ops@forwarder.example")).toMatchObject({
      reason: "bounce",
      emailMessageId: "m-1",
      at: "2026-03-14T12:43:00.000Z",
    });
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("parked");
    expect(record?.attempts.at(-1)).toMatchObject({ attempt: 1, outcome: "bounced", emailMessageId: "m-1" });
    expect(record?.attempts.at(-1)?.detail).toMatch(
      /^bounced \(Permanent\/General\) reported by SES at 2026-03-14T12:43:00.000Z for ops@forwarder.example \(smtp; 550 5.1.1 user unknown\); address suppressed/,
    );
    // SQS may hand the same feedback over twice: logged once.
    expect((await sesFeedback({ suppressions, deliveries }, { feedback, now: NOW })).logged).toBe(false);
    expect((await deliveries.get(job.deliveryId))?.attempts).toHaveLength(2);
  });

  it("the next alert to a suppressed address is logged suppressed and not sent", async () => {
    await alert("E1");
    const feedback = emailFeedbackOf(snsWrapped(sesBounce("m-1", ADDRESS)), NOW);
    if (!feedback) throw new Error("unreadable");
    await sesFeedback({ suppressions, deliveries }, { feedback, now: NOW });
    const { job, result } = await alert("E2");
    expect(result.outcome).toBe("suppressed");
    expect(email.sent).toHaveLength(1);
    expect(pipeline.retryScheduler).toMatchObject({ scheduled: [] });
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("parked");
    expect(record?.attempts).toEqual([expect.objectContaining({ outcome: "suppressed", status: null })]);
    expect(record?.attempts[0]?.detail).toMatch(
      /^suppressed: e-mail address ops@forwarder.example is suppressed: it bounced on 2026-03-14T12:43:00.000Z .*; not sent$/,
    );
  });

  it("a transient bounce is logged but does not suppress; a complaint suppresses and keeps the status", async () => {
    const { job } = await alert("E1");
    const transient = emailFeedbackOf(snsWrapped(sesBounce("m-1", ADDRESS, "Transient")), NOW);
    if (!transient) throw new Error("unreadable");
    expect(await sesFeedback({ suppressions, deliveries }, { feedback: transient, now: NOW })).toMatchObject({
      suppressed: [],
      logged: true,
    });
    expect(await suppressions.get("ops@forwarder.example")).toBeNull();
    expect((await deliveries.get(job.deliveryId))?.attempts.at(-1)?.detail).toMatch(/not suppressed/);

    const second = await alert("E2");
    expect(second.result.outcome).toBe("delivered");
    const complaint: EmailFeedback = {
      kind: "complaint",
      emailMessageId: "m-2",
      recipients: [{ address: ADDRESS }],
      at: NOW,
    };
    await sesFeedback({ suppressions, deliveries }, { feedback: complaint, now: NOW });
    expect((await suppressions.get("ops@forwarder.example"))?.reason).toBe("complaint");
    const record = await deliveries.get(second.job.deliveryId);
    expect(record?.status).toBe("delivered");
    expect(record?.attempts.at(-1)).toMatchObject({ outcome: "complained" });
  });

  it("feedback on an e-mail no delivery knows still suppresses the address", async () => {
    const feedback = emailFeedbackOf(snsWrapped(sesBounce("unknown", ADDRESS)), NOW);
    if (!feedback) throw new Error("unreadable");
    expect(await sesFeedback({ suppressions, deliveries }, { feedback, now: NOW })).toEqual({
      suppressed: ["ops@forwarder.example"],
      deliveryId: null,
      logged: false,
    });
  });

  it("the queue handler reads each record, drops what is no feedback and counts bounces", async () => {
    await alert("E1");
    const points: MetricPoint[] = [];
    const handler = sesFeedbackHandler(() => ({ suppressions, deliveries }), {
      now: () => NOW,
      metrics: (batch) => points.push(...batch),
    });
    const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent["Records"][number];
    const result = await handler(
      {
        Records: [
          record("1", snsWrapped(sesBounce("m-1", ADDRESS))),
          record("2", snsWrapped({ eventType: "Delivery", mail: { messageId: "m-1" } })),
        ],
      },
      {} as Context,
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(points).toEqual([{ name: "EmailFeedback", value: 1, dimensions: { Feedback: "bounce" } }]);
    expect(await suppressions.get("ops@forwarder.example")).not.toBeNull();
  });
});
