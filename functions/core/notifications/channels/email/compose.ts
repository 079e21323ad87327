/**
 * The e-mail a person reads: the rule's subject items, the route map as of sending (only what its
 * recipient may read now) and its links: the signed-in web app, or a share link made for this delivery
 * when the rule asks for one (`ShareLinkHours`).
 */
import type { NotificationJob } from "../../../ports/notifications.ts";
import type { RouteMapRepository } from "../../../ports/route-maps.ts";
import type { ShareLinkRepository } from "../../../ports/share-links.ts";
import { isActive, sharedRouteMapPageUrl, shareExpiresAt } from "../../../route-map/share-links.ts";
import type { RouteMap } from "../../../route-map/spec-types.ts";
import { normaliseUtc } from "../../../time/station-time.ts";
import { currentRouteMapJson, mayRead } from "../../../use-cases/shared/read-access.ts";
import type { HeaderItemCode, SubscriberIdentity } from "../../common.ts";
import { renderEmail } from "../../email.ts";
import { alertsPageUrl, type EmailLinks, routeMapPageUrl } from "../../email-links.ts";
import type { EventPayload } from "../../payload.ts";
import type { AttemptSettings } from "../channel.ts";

export interface EmailComposeDeps {
  /** The shipment as of sending, for an e-mail's timeline (absent: e-mails without one). */
  routeMaps?: Pick<RouteMapRepository, "getView" | "get">;
  /** Where an e-mail's share link is stored (rules with ShareLinkHours). */
  shareLinks?: ShareLinkRepository;
  /** A fresh share link's id and unguessable token, from an adapter (the core makes no randomness). */
  newShareLink?: () => { id: string; token: string };
}

/** An Email rule's delivery, as the rule stands now. */
export interface EmailTarget {
  job: NotificationJob;
  recipient: SubscriberIdentity;
  to: string;
  headerItems: HeaderItemCode[];
  ruleId: number;
  /** The rule's ShareLinkHours: null links the signed-in web app. */
  shareLinkHours: number | null;
  proActiveMinutes?: number;
}

export interface EmailShareLink {
  id: string;
  token: string;
  url: string;
  expiresAt: string;
}

/**
 * The route map as of sending, for the timeline; null when there is none, or when the rule's
 * forwarder may no longer read it (the e-mail never shows more than its recipient may read now).
 */
async function routeMapForEmail(
  deps: EmailComposeDeps,
  job: NotificationJob,
  recipient: SubscriberIdentity,
  now: string,
): Promise<RouteMap | null> {
  const routeMaps = deps.routeMaps;
  if (!routeMaps) return null;
  const view = await routeMaps.getView(job.event.awb);
  if (!view || !mayRead(view, { role: "forwarder", ...recipient })) return null;
  const json = await currentRouteMapJson(view, now, () => routeMaps.get(job.event.awb));
  return JSON.parse(json) as RouteMap;
}

/**
 * The e-mail's share link: the one an earlier attempt of this delivery made while it still works,
 * else a new one valid the rule's hours from now, owned by the rule's forwarder (so it reads only
 * while that forwarder may).
 */
async function shareLinkForEmail(
  deps: EmailComposeDeps,
  target: EmailTarget,
  input: { now: string; appBaseUrl: string },
): Promise<EmailShareLink | null> {
  const { shareLinks, newShareLink } = deps;
  const { job } = target;
  if (!shareLinks || !newShareLink || target.shareLinkHours === null) return null;
  const page = (token: string) => sharedRouteMapPageUrl(input.appBaseUrl, token);
  if (job.shareLink) {
    const earlier = await shareLinks.findByToken(job.shareLink.token);
    if (earlier && earlier.id === job.shareLink.id && isActive(earlier, input.now))
      return { ...job.shareLink, url: page(job.shareLink.token), expiresAt: earlier.expiresAt };
  }
  const { id, token } = newShareLink();
  const createdAt = normaliseUtc(input.now);
  const expiresAt = shareExpiresAt(createdAt, target.shareLinkHours);
  const { forwarderId, agentCode, agentCass } = target.recipient;
  await shareLinks.create(
    { id, awb: job.event.awb, owner: { forwarderId, agentCode, agentCass }, createdAt, expiresAt },
    token,
  );
  return { id, token, url: page(token), expiresAt };
}

export async function composeEmail(
  deps: EmailComposeDeps,
  target: EmailTarget,
  payload: EventPayload,
  input: AttemptSettings,
): Promise<{ email: ReturnType<typeof renderEmail>; shareLink: EmailShareLink | null }> {
  const { job } = target;
  const routeMap = await routeMapForEmail(deps, job, target.recipient, input.now);
  const base = input.appBaseUrl;
  // A share link only for a route map its forwarder may read now.
  const shareLink =
    base && routeMap ? await shareLinkForEmail(deps, target, { now: input.now, appBaseUrl: base }) : null;
  const links: EmailLinks | null = base
    ? {
        routeMap: shareLink
          ? { kind: "share", url: shareLink.url, expiresAt: shareLink.expiresAt }
          : { kind: "app", url: routeMapPageUrl(base, job.event.awb) },
        manageRule: alertsPageUrl(base),
      }
    : null;
  const email = renderEmail(payload, target.headerItems, {
    ...(input.serviceName ? { serviceName: input.serviceName } : {}),
    routeMap,
    milestoneKey: job.event.milestoneKey,
    links,
    ruleId: target.ruleId,
    ...(target.proActiveMinutes === undefined ? {} : { proActiveMinutes: target.proActiveMinutes }),
  });
  return { email, shareLink };
}
