/**
 * The ONE Record channel: an api:Notification POSTed to `{subscriber's server}/notifications` for a
 * ONE Record subscription to our logistics objects. The subscription is read as it stands now (revoked,
 * expired or no longer entitled: parked with the reason, nothing sent); the route map too, so the
 * notification names the read side's event id and, when asked, carries the object as it is now. The
 * standard has the publisher keep a notification until the subscriber confirms it (204): only a 2xx
 * answer delivers (delivery-policy.ts), anything else is retried and parked after the last attempt.
 * The SSRF guard is the HTTP sender's.
 */
import { notificationFor } from "../../../one-record-server/subscription-notifications.ts";
import { type OneRecordSubscription, subscriptionHears } from "../../../one-record-server/subscriptions.ts";
import { JSON_LD } from "../../../one-record-server/vocabulary.ts";
import type { OutboundPoster } from "../../../ports/notifications.ts";
import type { OneRecordSubscriptionStore } from "../../../ports/one-record.ts";
import type { RouteMapRepository } from "../../../ports/route-maps.ts";
import type { RouteMap } from "../../../route-map/spec-types.ts";
import { currentRouteMapJson } from "../../../use-cases/shared/read-access.ts";
import type { DeliveryChannel } from "../channel.ts";
import { fromHttp, timeoutOf } from "../results.ts";

export interface OneRecordChannelDeps {
  oneRecordSubscriptions?: OneRecordSubscriptionStore;
  routeMaps?: Pick<RouteMapRepository, "getView" | "get">;
  http: OutboundPoster;
}

export interface OneRecordTarget {
  sub: OneRecordSubscription;
  body: string;
}

export const oneRecordChannel: DeliveryChannel<OneRecordTarget, OneRecordChannelDeps> = {
  kind: "onerecord",

  async resolve(job, deps, attempt) {
    if (job.kind !== undefined || job.target.targetKind !== "onerecord") return null;
    const { target, event } = job;
    const sub = await deps.oneRecordSubscriptions?.get(target.subscriptionId);
    if (!sub) return { ok: false, reason: `ONE Record subscription ${target.subscriptionId} does not exist` };
    if (sub.status === "REQUEST_REVOKED")
      return { ok: false, reason: `ONE Record subscription ${sub.id} was revoked` };
    // Expiry is checked at the event's time: a notification owed before it expired is still sent.
    const type = subscriptionHears(sub, event, event.recordedAt);
    if (type === null)
      return { ok: false, reason: `ONE Record subscription ${sub.id} no longer hears this event` };
    const routeMaps = deps.routeMaps;
    const view = routeMaps ? await routeMaps.getView(event.awb) : null;
    const map =
      routeMaps && view
        ? (JSON.parse(
            await currentRouteMapJson(view, attempt.now, () => routeMaps.get(event.awb)),
          ) as RouteMap)
        : null;
    const notification = notificationFor({ links: { base: sub.serverBase }, sub, event, type, map });
    if (notification === null)
      return {
        ok: false,
        reason: `the event is not about the object ONE Record subscription ${sub.id} names`,
      };
    return { ok: true, target: { sub, body: JSON.stringify(notification) } };
  },

  async send({ sub, body }, deps, attempt) {
    return fromHttp(
      await deps.http.post({
        url: sub.callbackUrl,
        headers: { "content-type": JSON_LD },
        body,
        ...timeoutOf(attempt.timeoutMs),
      }),
    );
  },
};
