/**
 * NotifyTo addresses confirm once before they receive alerts: the first Email
 * rule of a forwarder naming an address mails that address one confirmation link; until the link is
 * followed, deliveries to it are parked ("not confirmed"). Confirmation is per (forwarder, address):
 * the recipient agrees to that forwarder's alerts, not to everybody's. The link's token is random
 * (from the caller), at least 128 bits, and only its SHA-256 is stored.
 *
 * Against amplification the confirmation mail itself is bounded too: one per (forwarder, address)
 * while pending, sent again only after CONFIRMATION_RESEND_SECONDS (a new rule naming the address, or
 * a changed NotifyTo, after that asks again); a link older than CONFIRMATION_TTL_SECONDS is refused.
 */
import { createHash } from "node:crypto";

/** A pending link is not mailed again for a day. */
export const CONFIRMATION_RESEND_SECONDS = 24 * 3600;

/**
 * How long an alert held for an unconfirmed address stays worth sending once the address is
 * confirmed: 24 h from when it was raised. A person confirming the next morning still gets
 * yesterday's departures and arrivals, while a backlog of up to 7 days (a link's life) does not land
 * as a burst of stale news about shipments that have moved on since. One day is also the resend
 * period of the link itself. Older held alerts are not sent; the confirmation page lists them and
 * each one's log says why (they stay replayable by hand).
 */
export const HELD_ALERT_RELEVANCE_SECONDS = 24 * 3600;

/** Why a delivery to an unconfirmed address is parked: the log line its release looks for. */
export const notConfirmedReason = (address: string) =>
  `e-mail address ${address} is not confirmed yet (it was mailed a confirmation link)`;
const NOT_CONFIRMED_MARK = " is not confirmed yet ";
export const isHeldForConfirmation = (detail: string) => detail.includes(NOT_CONFIRMED_MARK);
/** A link works for 7 days. */
export const CONFIRMATION_TTL_SECONDS = 7 * 24 * 3600;

export interface EmailConfirmation {
  forwarderId: string;
  /** Lower-cased. */
  address: string;
  status: "pending" | "confirmed";
  /** SHA-256 (hex) of the current link's token; null once confirmed. */
  tokenHash: string | null;
  /** When the current link was mailed. */
  requestedAt: string;
  confirmedAt: string | null;
}

export const normaliseAddress = (address: string) => address.trim().toLowerCase();

export const hashConfirmationToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** base64url, 22+ characters (128+ bits): what a link token looks like. */
export const CONFIRMATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

/**
 * What to do for an Email rule naming `address`: nothing (confirmed, or a link mailed recently) or a
 * new pending confirmation to store and mail (replacing an older link, which stops working).
 */
export function confirmationToRequest(
  existing: EmailConfirmation | null,
  input: { forwarderId: string; address: string; token: string; now: string },
): EmailConfirmation | null {
  if (existing?.status === "confirmed") return null;
  if (
    existing &&
    Date.parse(input.now) - Date.parse(existing.requestedAt) < CONFIRMATION_RESEND_SECONDS * 1000
  )
    return null;
  return {
    forwarderId: input.forwarderId,
    address: normaliseAddress(input.address),
    status: "pending",
    tokenHash: hashConfirmationToken(input.token),
    requestedAt: input.now,
    confirmedAt: null,
  };
}

/** The pending confirmation a link confirms, or why not ("unknown" covers used and replaced links). */
export function confirmWithToken(
  found: EmailConfirmation | null,
  token: string,
  now: string,
): { ok: true; confirmation: EmailConfirmation } | { ok: false; reason: "unknown" | "expired" } {
  if (found?.status !== "pending" || found.tokenHash !== hashConfirmationToken(token))
    return { ok: false, reason: "unknown" };
  if (Date.parse(now) - Date.parse(found.requestedAt) > CONFIRMATION_TTL_SECONDS * 1000)
    return { ok: false, reason: "expired" };
  return { ok: true, confirmation: { ...found, status: "confirmed", tokenHash: null, confirmedAt: now } };
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The confirmation e-mail: who asks, what for, the link; nothing about any shipment. */
export function confirmationEmail(input: {
  forwarderId: string;
  address: string;
  link: string;
  serviceName: string;
}) {
  const subject = `Confirm shipment alerts from ${input.forwarderId}`;
  const text =
    `Forwarder ${input.forwarderId} asked ${input.serviceName} to send air-cargo shipment alerts to ${input.address}.\n\n` +
    `To receive them, confirm this address (the link works for 7 days):\n${input.link}\n\n` +
    "If you did not expect this, ignore this e-mail: nothing will be sent to you.\n";
  const html =
    `<p>Forwarder ${escapeHtml(input.forwarderId)} asked ${escapeHtml(input.serviceName)} to send air-cargo shipment alerts to ${escapeHtml(input.address)}.</p>` +
    `<p>To receive them, <a href="${escapeHtml(input.link)}">confirm this address</a> (the link works for 7 days).</p>` +
    "<p>If you did not expect this, ignore this e-mail: nothing will be sent to you.</p>";
  return { subject, text, html };
}
