/**
 * Issue 14 point 2 in the delivery use case: the e-mail of a rule carries the shipment's timeline as
 * of sending, a link to the route map (the signed-in web app's page, or a share link made for this
 * delivery when the rule's ShareLinkHours asks for one; the same link again on a retry) and to the
 * alerts page. In-memory ports; the route map comes from the real ingest use case.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { NotificationRule } from "../../../functions/core/notifications/index.ts";
import type { NotificationJob } from "../../../functions/core/ports/notifications.ts";
import type { RouteMapRepository } from "../../../functions/core/ports/route-maps.ts";
import { type DeliverJobDeps, deliverJob } from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import {
  emailRule,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
} from "../../adapters/pipeline/fakes.ts";
import { memoryShareLinkRepository } from "../../support/memory/share-link-repository.ts";
import { AFTER_DEP, type Shipped, shipped } from "./email-fixtures.ts";
import { OWNER } from "./helpers.ts";

const BASE = "https://tracker.example.test";
const ROUTE_MAP_PAGE = `${BASE}/app/#/routemap/02012345675`;
const ALERTS_PAGE = `${BASE}/app/#/alerts`;
const tokenOf = (n: number) => `token-${n}-`.padEnd(43, "x");

let shipment: Shipped;
let subscriptions: FakeSubscriptions;
let deliveries: FakeDeliveries;
let queue: RecordingQueue;
let email: RecordingEmail;
let shareLinks: ReturnType<typeof memoryShareLinkRepository>;
let linksMade: number;
let routeMaps: Pick<RouteMapRepository, "getView" | "get">;

beforeEach(async () => {
  shipment = await shipped();
  subscriptions = new FakeSubscriptions();
  deliveries = new FakeDeliveries();
  queue = new RecordingQueue();
  email = new RecordingEmail();
  shareLinks = memoryShareLinkRepository();
  linksMade = 0;
  routeMaps = shipment.h.routeMaps;
});

const deps = (): DeliverJobDeps => ({
  subscriptions,
  deliveries,
  queue,
  retryScheduler: new RecordingScheduler(),
  http: new ScriptedPoster(),
  email,
  routeMaps,
  shareLinks,
  newShareLink: () => {
    linksMade += 1;
    return { id: `link-${linksMade}`, token: tokenOf(linksMade) };
  },
});

async function ruleJob(rule: NotificationRule): Promise<NotificationJob> {
  await subscriptions.putRule(rule);
  await matchEvent(deps(), { event: shipment.dep, now: AFTER_DEP });
  const [job] = queue.jobs;
  queue.sent.length = 0;
  if (!job || job.kind) throw new Error("no e-mail job matched");
  return job;
}

const attempt = (job: NotificationJob, appBaseUrl: string | null = BASE) =>
  deliverJob(deps(), {
    job,
    now: AFTER_DEP,
    sentAtSeconds: Date.parse(AFTER_DEP) / 1000,
    random: 0.5,
    ...(appBaseUrl ? { appBaseUrl } : {}),
  });

describe("the e-mail of a rule", () => {
  it("by default links the signed-in route-map page and the alerts page, with the timeline as of sending", async () => {
    const job = await ruleJob(emailRule(5, OWNER, { Event: "DEP" }));
    const result = await attempt(job);
    expect(result.outcome).toBe("delivered");
    const [mail] = email.sent;
    expect(mail?.subject).toBe("AWB 020-12345675 | MIL DEP | NTF Event");
    const lines = mail?.text.split("\n") ?? [];
    expect(lines[0]).toBe("LH400 departed FRA 1 h 15 min after schedule · 15 min after plan: Ko");
    expect(lines).toContain(`Route map: ${ROUTE_MAP_PAGE}`);
    expect(lines).toContain(`Manage your alerts: ${ALERTS_PAGE}`);
    expect(lines).toContain(
      "▶ Departed (DEP), FRA: planned 14 Mar 14:25 CET · actual 14 Mar 14:40 CET · 1 h 15 min after schedule · 15 min after plan: Ko",
    );
    expect(lines).toContain("You receive this e-mail because your alert rule 5 matched.");
    expect(mail?.html).toContain(`href="${ROUTE_MAP_PAGE}"`);
    expect(mail?.html).toContain(`href="${ALERTS_PAGE}"`);
    expect(shareLinks.all()).toEqual([]);
    expect(linksMade).toBe(0);
  });

  it("with ShareLinkHours: one share link for this delivery, owned by the rule's forwarder, token not stored", async () => {
    const job = await ruleJob(emailRule(6, OWNER, { Event: "DEP", ShareLinkHours: 48 }));
    const result = await attempt(job);
    expect(result.outcome).toBe("delivered");
    expect(result.detail).toBe("accepted by SES as m-1; share link link-1 valid until 2026-03-16T13:45:00Z");
    expect(shareLinks.all()).toEqual([
      {
        id: "link-1",
        awb: { prefix: "020", serial: "12345675" },
        owner: { forwarderId: OWNER.forwarderId, agentCode: OWNER.agentCode, agentCass: OWNER.agentCass },
        createdAt: "2026-03-14T13:45:00Z",
        expiresAt: "2026-03-16T13:45:00Z",
      },
    ]);
    expect(shareLinks.keys()).not.toContain(tokenOf(1));
    const url = `${BASE}/app/#/shared/${tokenOf(1)}`;
    const [mail] = email.sent;
    expect(mail?.text.split("\n")).toContain(
      `Route map (share link, no sign-in, valid until 2026-03-16 13:45 UTC): ${url}`,
    );
    expect(mail?.html).toContain(`href="${url}"`);
    expect(mail?.text).not.toContain(ROUTE_MAP_PAGE);
  });

  it("a retry of the same delivery sends the same share link; a link revoked meanwhile is replaced", async () => {
    const job = await ruleJob(emailRule(7, OWNER, { Event: "DEP", ShareLinkHours: 2 }));
    email.results = [
      { kind: "failed", retryable: true, message: "Throttling: slow down", latencyMs: 3 },
      { kind: "failed", retryable: true, message: "Throttling: slow down", latencyMs: 3 },
    ];
    expect((await attempt(job)).outcome).toBe("retry");
    const [second] = queue.jobs;
    if (!second || second.kind) throw new Error("no retry queued");
    expect(second).toMatchObject({ attempt: 2, shareLink: { id: "link-1", token: tokenOf(1) } });

    expect((await attempt(second)).outcome).toBe("retry");
    expect(linksMade).toBe(1);
    expect(shareLinks.all()).toHaveLength(1);
    const url = `${BASE}/app/#/shared/${tokenOf(1)}`;
    expect(email.sent.map((mail) => mail.html.includes(`href="${url}"`))).toEqual([true, true]);

    const third = queue.jobs.at(-1);
    if (!third || third.kind) throw new Error("no third attempt queued");
    await shareLinks.revoke(OWNER.forwarderId, { prefix: "020", serial: "12345675" }, "link-1");
    expect((await attempt(third)).outcome).toBe("delivered");
    expect(linksMade).toBe(2);
    expect(email.sent[2]?.html).toContain(`href="${BASE}/app/#/shared/${tokenOf(2)}"`);
  });

  it("never shows a route map its forwarder may no longer read: no timeline, no share link", async () => {
    const job = await ruleJob(emailRule(8, OWNER, { Event: "DEP", ShareLinkHours: 48 }));
    const real = shipment.h.routeMaps;
    routeMaps = {
      get: (awb) => real.get(awb),
      getView: async (awb) => {
        const view = await real.getView(awb);
        return view && { ...view, ownerAgent: { code: "7777777", cass: "0007" } };
      },
    };
    expect((await attempt(job)).outcome).toBe("delivered");
    const [mail] = email.sent;
    expect(mail?.text).not.toContain("Timeline");
    expect(mail?.text.split("\n")).toContain(`Route map: ${ROUTE_MAP_PAGE}`);
    expect(shareLinks.all()).toEqual([]);
  });

  it("without the web app's address (APP_BASE_URL unset): the timeline, but no links and no share link", async () => {
    const job = await ruleJob(emailRule(9, OWNER, { Event: "DEP", ShareLinkHours: 48 }));
    expect((await attempt(job, null)).outcome).toBe("delivered");
    const [mail] = email.sent;
    expect(mail?.text).toContain("Timeline");
    expect(mail?.html).not.toContain("<a ");
    expect(shareLinks.all()).toEqual([]);
  });

  it("several rules of a forwarder for one address: one e-mail job (the first rule's settings)", async () => {
    await subscriptions.putRule(emailRule(10, OWNER, { Event: "DEP", NotifyTo: "Ops@Forwarder.example" }));
    await subscriptions.putRule(
      emailRule(11, OWNER, { Event: "DEP,ARR", NotifyTo: "ops@forwarder.example", ShareLinkHours: 24 }),
    );
    await matchEvent(deps(), { event: shipment.dep, now: AFTER_DEP });
    expect(queue.jobs).toHaveLength(1);
  });
});
