import * as v from "valibot";
import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../../../functions/core/events.ts";
import {
  eventLookupKeys,
  type MatchableEvent,
  markWebhookVerified,
  matchEvent,
  matchesFilters,
  NotificationRuleRequestSchema,
  ruleFromRequest,
  type SubscriberIdentity,
  type Subscription,
  SubscriptionIndex,
  subscriptionIndexKeys,
  WebhookRequestSchema,
  webhookFromRequest,
} from "../../../functions/core/notifications/index.ts";
import { emailRuleBody, makeEvent, NOW, OWNER, STRANGER, urlRuleBody, webhookBody, XTD } from "./helpers.ts";

let nextId = 1;
function rule(owner: SubscriberIdentity, body: Record<string, unknown> = {}): Subscription {
  const request = v.parse(NotificationRuleRequestSchema, emailRuleBody(body));
  return { kind: "rule", rule: ruleFromRequest(request, { id: nextId++, owner, now: NOW }) };
}
function urlRule(owner: SubscriberIdentity, body: Record<string, unknown> = {}): Subscription {
  const request = v.parse(NotificationRuleRequestSchema, urlRuleBody(body));
  return { kind: "rule", rule: ruleFromRequest(request, { id: nextId++, owner, now: NOW }) };
}
function webhook(
  owner: SubscriberIdentity,
  body: Record<string, unknown> = {},
  verified = true,
): Subscription {
  const created = webhookFromRequest(v.parse(WebhookRequestSchema, webhookBody(body)), {
    id: nextId++,
    owner,
    now: NOW,
  });
  return { kind: "webhook", webhook: verified ? markWebhookVerified(created, NOW) : created };
}

const withXtd = (event: DomainEvent, ...forwarders: string[]): DomainEvent => ({
  ...event,
  audience: { ...event.audience, xtdForwarders: forwarders },
});

describe("who may hear", () => {
  const event = withXtd(makeEvent(), XTD.forwarderId);

  it("owner (agent code + CASS) and XTD forwarder match, a stranger never does", () => {
    expect(matchesFilters(rule(OWNER), event)).toBe(true);
    expect(matchesFilters(rule(XTD), event)).toBe(true);
    expect(matchesFilters(rule(STRANGER), event)).toBe(false);
  });

  it("same agent code with another CASS is not the owner", () => {
    expect(matchesFilters(rule({ ...OWNER, forwarderId: "x", agentCass: "9999" }), event)).toBe(false);
  });

  it("another forwarder id of the owning agent matches through the agent", () => {
    expect(matchesFilters(rule({ ...OWNER, forwarderId: "FWDOWNERX-branch-2" }), event)).toBe(true);
  });

  it("an event without owner agent reaches XTD forwarders only", () => {
    const orphan = withXtd(makeEvent({ audience: { ownerAgent: null, xtdForwarders: [] } }), XTD.forwarderId);
    expect(matchesFilters(rule(OWNER), orphan)).toBe(false);
    expect(matchesFilters(rule(XTD), orphan)).toBe(true);
  });

  it("a stranger's rule is not matched even if handed in as a candidate", () => {
    expect(matchEvent(event, [rule(STRANGER), webhook(STRANGER)])).toEqual([]);
  });
});

describe("rule filters", () => {
  const event = makeEvent();
  it.each([
    ["disabled", { Enabled: false }, false],
    ["other event", { Event: "ARR" }, false],
    ["prefix *", { AirlinePrefix: "*" }, true],
    ["same prefix", { AirlinePrefix: "020" }, true],
    ["other prefix", { AirlinePrefix: "057" }, false],
    ["same AWB", { AirlinePrefix: "020", AwbNumber: "12345675" }, true],
    ["other AWB", { AirlinePrefix: "020", AwbNumber: "12345686" }, false],
    ["same AWB serial, other prefix", { AirlinePrefix: "057", AwbNumber: "12345675" }, false],
    ["destination matches", { Destination: "JFK" }, true],
    ["destination differs", { Destination: "ORD" }, false],
    ["origin matches", { Origin: "FRA" }, true],
    ["origin differs", { Origin: "MUC" }, false],
    ["missed rule vs actual event", { EventAlert: false, MissedEventAlert: true }, false],
    ["proactive rule vs actual event", { EventAlert: false, ProActiveAlert: true, ProActiveTime: 60 }, false],
  ])("%s", (_name, body, expected) => {
    expect(matchesFilters(rule(OWNER, body), event)).toBe(expected);
  });

  it("a Missed event matches only MissedEventAlert rules", () => {
    const missed = makeEvent({ type: "Missed", reported: null });
    expect(matchesFilters(rule(OWNER, { EventAlert: false, MissedEventAlert: true }), missed)).toBe(true);
    expect(matchesFilters(rule(OWNER), missed)).toBe(false);
    expect(
      matchesFilters(rule(OWNER, { EventAlert: false, ProActiveAlert: true, ProActiveTime: 60 }), missed),
    ).toBe(false);
  });

  it("a ProActive event matches ProActive rules, of its interval when it carries one", () => {
    const proactive = (minutes?: number): MatchableEvent => ({
      ...makeEvent({ type: "ProActive", reported: null }),
      ...(minutes === undefined ? {} : { proActiveMinutes: minutes }),
    });
    const rule240 = rule(OWNER, { EventAlert: false, ProActiveAlert: true, ProActiveTime: 240 });
    expect(matchesFilters(rule240, proactive(240))).toBe(true);
    expect(matchesFilters(rule240, proactive(60))).toBe(false);
    expect(matchesFilters(rule240, proactive())).toBe(true);
    expect(matchesFilters(rule(OWNER, { EventAlert: false, MissedEventAlert: true }), proactive(240))).toBe(
      false,
    );
  });

  it("is not retroactive: an event recorded before the rule existed does not match it", () => {
    const late = rule(OWNER);
    if (late.kind === "rule") late.rule.createdAt = "2026-03-14T12:41:31Z";
    expect(matchesFilters(late, makeEvent({ recordedAt: "2026-03-14T12:41:30Z" }))).toBe(false);
    expect(matchesFilters(late, makeEvent({ recordedAt: "2026-03-14T12:41:31Z" }))).toBe(true);
    // Creation stamps carry milliseconds, event stamps do not: the same second counts as "after".
    if (late.kind === "rule") late.rule.createdAt = "2026-03-14T12:41:31.924Z";
    expect(matchesFilters(late, makeEvent({ recordedAt: "2026-03-14T12:41:31Z" }))).toBe(true);
  });

  it("RMP/CAN never match rules (rules list milestones only)", () => {
    expect(matchesFilters(rule(OWNER), makeEvent({ name: "RMP", reported: null, planned: null }))).toBe(
      false,
    );
  });
});

describe("webhook filters", () => {
  const event = makeEvent();
  it.each([
    ["all AWBs", {}, true],
    ["carrier filter same", { AWB: "020" }, true],
    ["carrier filter other", { AWB: "057" }, false],
    ["AWB filter same", { AWB: "020-12345675" }, true],
    ["AWB filter other", { AWB: "02012345686" }, false],
    ["event not listed", { Event: "ARR" }, false],
    ["disabled", { Enable: false }, false],
  ])("%s", (_name, body, expected) => {
    expect(matchesFilters(webhook(OWNER, body), event)).toBe(expected);
  });

  it("an unverified webhook receives events (verification is a proof, not a gate)", () => {
    expect(matchesFilters(webhook(OWNER, {}, false), event)).toBe(true);
  });

  it("RMP and CAN reach webhooks listing them", () => {
    const rmp = makeEvent({
      name: "RMP",
      eventStatus: "Replan",
      reported: null,
      planned: null,
      flight: null,
    });
    const can = makeEvent({ name: "CAN", reported: null, planned: null, flight: null });
    const hook = webhook(OWNER, { Event: "RMP,CAN" });
    expect(matchesFilters(hook, rmp)).toBe(true);
    expect(matchesFilters(hook, can)).toBe(true);
    expect(matchesFilters(hook, makeEvent())).toBe(false);
  });

  it("webhooks hear actual occurrences only, not Missed/ProActive alerts", () => {
    expect(matchesFilters(webhook(OWNER), makeEvent({ type: "Missed", reported: null }))).toBe(false);
  });
});

describe("matchEvent", () => {
  it("one delivery per subscription when a forwarder is owner and XTD at once", () => {
    const subscription = rule(OWNER);
    const event = withXtd(makeEvent(), OWNER.forwarderId, OWNER.forwarderId);
    const index = new SubscriptionIndex();
    index.add(subscription);
    const candidates = index.candidatesFor(event);
    expect(candidates).toHaveLength(2); // found under the AGT and the FWD key
    const targets = matchEvent(event, candidates);
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({
      targetKind: "email",
      subscriptionKind: "rule",
      subscriptionId: subscription.kind === "rule" ? subscription.rule.id : -1,
      forwarderId: OWNER.forwarderId,
      emailTo: "ops@forwarder.example",
      headerItems: ["AWB", "MIL", "NTF"],
      deliveryId: `evt-0001:rule-${subscription.kind === "rule" ? subscription.rule.id : -1}`,
    });
  });

  it("targets of each kind, carrying the recipient and no secrets", () => {
    const event = withXtd(makeEvent(), XTD.forwarderId);
    const subs = [
      rule(OWNER),
      urlRule(XTD),
      webhook(XTD, { Psk: "0123456789abcdef", Type: "xml" }),
      rule(STRANGER),
    ];
    const targets = matchEvent(event, subs);
    expect(targets.map((target) => target.targetKind).sort()).toEqual(["email", "url", "webhook"]);
    const hook = targets.find((target) => target.targetKind === "webhook");
    expect(hook).toMatchObject({
      url: "https://hooks.forwarder.example/routemap",
      payloadType: "xml",
      recipient: XTD,
    });
    expect(JSON.stringify(targets)).not.toContain("0123456789abcdef");
    const url = targets.find((target) => target.targetKind === "url");
    expect(url).toMatchObject({ endpointId: expect.any(String), recipient: XTD });
  });

  it("rule and webhook with the same numeric id are distinct subscriptions", () => {
    const r = rule(OWNER);
    const w = webhook(OWNER);
    if (r.kind === "rule" && w.kind === "webhook") w.webhook.id = r.rule.id;
    expect(matchEvent(makeEvent(), [r, w, r, w])).toHaveLength(2);
  });
});

describe("index keys", () => {
  it("a rule is stored under owner-agent and forwarder keys per event and alert kind", () => {
    expect(subscriptionIndexKeys(rule(OWNER, { Event: "DEP,ARR" }))).toEqual([
      "AGT#1234567#0001#Event#DEP",
      "FWD#FWDOWNERX#Event#DEP",
      "AGT#1234567#0001#Event#ARR",
      "FWD#FWDOWNERX#Event#ARR",
    ]);
    expect(
      subscriptionIndexKeys(rule(OWNER, { Event: "DEP", EventAlert: false, MissedEventAlert: true })),
    ).toEqual(["AGT#1234567#0001#Missed#DEP", "FWD#FWDOWNERX#Missed#DEP"]);
  });

  it("an event looks up its owner agent and each XTD forwarder once", () => {
    expect(eventLookupKeys(withXtd(makeEvent(), "a", "b", "a"))).toEqual([
      "AGT#1234567#0001#Event#DEP",
      "FWD#a#Event#DEP",
      "FWD#b#Event#DEP",
    ]);
  });

  /**
   * The audience's own subscriptions stay fixed while the rest of the world grows 100-fold: the keys
   * and the candidate set of one event must not change size (counts, not timings).
   */
  it("lookup keys and candidates do not grow with the total number of rules", () => {
    const event = withXtd(makeEvent(), XTD.forwarderId);
    const audienceSubs = [rule(OWNER), rule(OWNER, { Event: "ARR" }), rule(XTD), webhook(XTD)];
    const strangerRequests = ["DEP", "DEP,ARR", "FWB,DEP", "DEP,NFD,DLV"].map((events) =>
      v.parse(NotificationRuleRequestSchema, emailRuleBody({ Event: events })),
    );
    const sizes = [1_000, 100_000].map((total) => {
      const index = new SubscriptionIndex();
      for (const sub of audienceSubs) index.add(sub);
      for (let i = 0; i < total - audienceSubs.length; i++) {
        const stranger: SubscriberIdentity = {
          forwarderId: `fwd-${i % 5_000}`,
          agentCode: String(2_000_000 + (i % 5_000)),
          agentCass: "0100",
          agentStation: "AMS",
        };
        // Strangers listen to DEP too (the event's own name): only the audience part of the key separates them.
        const request = strangerRequests[i % strangerRequests.length]!;
        index.add({
          kind: "rule",
          rule: ruleFromRequest(request, { id: 1_000_000 + i, owner: stranger, now: NOW }),
        });
      }
      const keys = eventLookupKeys(event);
      const candidates = index.candidatesFor(event);
      return {
        keys: keys.length,
        candidates: candidates.length,
        matched: matchEvent(event, candidates).length,
        keyCount: index.keyCount,
      };
    });
    const [small, large] = sizes as [(typeof sizes)[number], (typeof sizes)[number]];
    expect(large.keyCount).toBeGreaterThan(small.keyCount);
    expect(large.keys).toBe(small.keys);
    expect(large.candidates).toBe(small.candidates);
    expect(small.keys).toBe(2);
    expect(small.candidates).toBe(3); // OWNER's DEP rule via AGT, XTD's rule and webhook via FWD
    expect(large.matched).toBe(3);
  });
});
