/**
 * The links of a notification e-mail: the route-map page, either the signed-in web app's
 * (`<app>/app/#/routemap/<11-digit AWB>`) or, when the rule asks for it (`ShareLinkHours`), a share
 * link made for this one delivery (`<app>/app/#/shared/<token>`, no sign-in); and the web app's alerts
 * page, where the rule is managed.
 */
import type { AwbId } from "../carrier-messages/types.ts";
import { MAX_SHARE_HOURS, MIN_SHARE_HOURS } from "../route-map/share-links.ts";

/** The rule setting's bounds: those of a share link made by hand (POST …/share). */
export const MIN_SHARE_LINK_HOURS = MIN_SHARE_HOURS;
export const MAX_SHARE_LINK_HOURS = MAX_SHARE_HOURS;

export interface EmailLinks {
  routeMap: { kind: "app"; url: string } | { kind: "share"; url: string; expiresAt: string };
  /** Where the rule is managed. */
  manageRule: string;
}

const origin = (appBaseUrl: string) => appBaseUrl.replace(/\/+$/, "");

/** The signed-in web app's route map of one AWB. */
export const routeMapPageUrl = (appBaseUrl: string, awb: AwbId): string =>
  `${origin(appBaseUrl)}/app/#/routemap/${awb.prefix}${awb.serial}`;

/** The web app's alerts page (rules, webhooks, their deliveries). */
export const alertsPageUrl = (appBaseUrl: string): string => `${origin(appBaseUrl)}/app/#/alerts`;
