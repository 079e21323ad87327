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

/** The page of a link: what confirming means, and the button (a POST to the same URL) that does it. */
export function confirmationPage(confirmation: EmailConfirmation, state: "ask" | "done"): string {
  const who = `${escapeHtml(confirmation.address)} (alerts from forwarder ${escapeHtml(confirmation.forwarderId)})`;
  const content =
    state === "ask"
      ? `<p>Confirm that ${who} may receive air-cargo shipment alerts?</p>` +
        '<form method="post"><button type="submit">Confirm</button></form>'
      : `<p>Confirmed: ${who} receives shipment alerts from now on.</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shipment alerts</title></head><body>${content}</body></html>`;
}

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
