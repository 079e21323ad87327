/**
 * The customer-endpoint channel: a Url rule's NotifyTo is the GUID of an endpoint support registered
 * for the forwarder (its Url and one header, name and value); the event payload is POSTed there as
 * JSON. A 410 parks the delivery and switches nothing off: the registration is support's.
 */
import type {
  NotificationJob,
  OutboundPoster,
  SubscriptionRepository,
} from "../../../ports/notifications.ts";
import type { SubscriberIdentity } from "../../common.ts";
import { isEndpointUsableBy } from "../../customer-endpoints.ts";
import { renderEventPayload } from "../../payload.ts";
import type { DeliveryChannel } from "../channel.ts";
import { currentRule, isRuleJob } from "../current-rule.ts";
import { fromHttp, timeoutOf } from "../results.ts";

export interface CustomerEndpointChannelDeps {
  subscriptions: SubscriptionRepository;
  http: OutboundPoster;
}

export interface CustomerEndpointTarget {
  job: NotificationJob;
  recipient: SubscriberIdentity;
  url: string;
  headerName: string;
  headerValue: string;
}

export const customerEndpointChannel: DeliveryChannel<CustomerEndpointTarget, CustomerEndpointChannelDeps> = {
  kind: "customer-endpoint",

  async resolve(job, deps, attempt) {
    if (!isRuleJob(job)) return null;
    const current = await currentRule(job, deps.subscriptions, attempt);
    if (!current.ok) return current;
    const rule = current.target;
    if (rule.channel !== "Url") return null;
    const endpoint = await deps.subscriptions.getCustomerEndpoint(rule.notifyTo);
    if (!endpoint || !isEndpointUsableBy(endpoint, rule.owner.forwarderId))
      return { ok: false, reason: `customer endpoint ${rule.notifyTo} is not registered for this forwarder` };
    const { url, headerName, headerValue } = endpoint;
    return { ok: true, target: { job, recipient: rule.owner, url, headerName, headerValue } };
  },

  async send(target, deps, attempt) {
    return fromHttp(
      await deps.http.post({
        url: target.url,
        headers: { "content-type": "application/json", [target.headerName]: target.headerValue },
        body: JSON.stringify(renderEventPayload(target.job.event, target.recipient)),
        ...timeoutOf(attempt.timeoutMs),
      }),
    );
  },
};
