/**
 * The confirmation step of Email rules: after an enabled Email rule is saved (or a
 * rule is enabled), its NotifyTo
 * address gets one confirmation link unless that forwarder's address is confirmed, or a link went out
 * less than a day ago. Deliveries wait for the confirmation (deliver-job parks them meanwhile).
 */
import {
  confirmationEmail,
  confirmationToRequest,
  type NotificationRule,
  normaliseAddress,
} from "../../notifications/index.ts";
import type { EmailConfirmationRepository, EmailSender } from "../../ports/notifications.ts";

export interface AddressConfirmationDeps {
  confirmations: EmailConfirmationRepository;
  email: EmailSender;
}

/** A fresh random token (the core has no randomness) and where the link points. */
export interface ConfirmationLinkInput {
  token: string;
  /** The API's public base URL, without a trailing slash. */
  baseUrl: string;
}

/** Who asks, in the confirmation e-mail. */
const SERVICE_NAME = "Route Map Tracker";

/** What the address's state is after this save ("not-needed": a Url rule, or a disabled one). */
export type AddressState = "not-needed" | "confirmed" | "pending" | "link-sent" | "link-not-sent";

export const confirmationLink = (baseUrl: string, token: string) => `${baseUrl}/email-confirmations/${token}`;

export async function askAddressConfirmation(
  deps: AddressConfirmationDeps,
  rule: NotificationRule,
  input: ConfirmationLinkInput & { now: string },
): Promise<AddressState> {
  // A disabled rule mails nobody, not even a link: enabling it asks.
  if (rule.channel !== "Email" || !rule.enabled) return "not-needed";
  const forwarderId = rule.owner.forwarderId;
  const address = normaliseAddress(rule.notifyTo);
  const existing = await deps.confirmations.get(forwarderId, address);
  const pending = confirmationToRequest(existing, {
    forwarderId,
    address,
    token: input.token,
    now: input.now,
  });
  if (!pending) return existing?.status === "confirmed" ? "confirmed" : "pending";
  // Stored first, so the link works as soon as the mail arrives.
  await deps.confirmations.putPending(pending);
  const mail = confirmationEmail({
    forwarderId,
    address,
    link: confirmationLink(input.baseUrl, input.token),
    serviceName: SERVICE_NAME,
  });
  const sent = await deps.email.send({ to: rule.notifyTo, ...mail });
  if (sent.kind === "sent") return "link-sent";
  // Not mailed: dated back so that the next save of a rule naming the address mails a link again.
  await deps.confirmations.putPending({ ...pending, requestedAt: new Date(0).toISOString() });
  return "link-not-sent";
}
