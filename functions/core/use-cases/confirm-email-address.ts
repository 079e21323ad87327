/**
 * The link of a confirmation e-mail: its token, hashed, finds the pending confirmation; that
 * forwarder's alerts to the address are delivered from now on, and those held while it waited go out
 * now (shared/held-alerts.ts: within 24 h of being raised; older ones are listed, not sent). A used,
 * replaced or expired link is refused (404) and changes nothing.
 */
import { ConfirmationLinkError } from "../errors.ts";
import { confirmWithToken, type EmailConfirmation, hashConfirmationToken } from "../notifications/index.ts";
import type { EmailConfirmationRepository } from "../ports/notifications.ts";
import { type HeldAlertDeps, type ReleasedAlerts, releaseHeldAlerts } from "./shared/held-alerts.ts";

export async function confirmEmailAddress(
  deps: HeldAlertDeps & { confirmations: EmailConfirmationRepository },
  input: { token: string; now: string },
): Promise<{ confirmation: EmailConfirmation; held: ReleasedAlerts }> {
  const tokenHash = hashConfirmationToken(input.token);
  const result = confirmWithToken(
    await deps.confirmations.findByTokenHash(tokenHash),
    input.token,
    input.now,
  );
  if (!result.ok) throw new ConfirmationLinkError(result.reason);
  if (!(await deps.confirmations.confirm(result.confirmation, tokenHash)))
    throw new ConfirmationLinkError("unknown");
  // After the confirmation is stored: a released alert's delivery finds the address confirmed.
  const held = await releaseHeldAlerts(deps, {
    forwarderId: result.confirmation.forwarderId,
    address: result.confirmation.address,
    now: input.now,
  });
  return { confirmation: result.confirmation, held };
}
