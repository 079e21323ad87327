/**
 * The link of a confirmation e-mail: its token, hashed, finds the pending
 * confirmation; that forwarder's alerts to the address are delivered from now on. A used, replaced or
 * expired link is refused (404) and changes nothing.
 */
import { ConfirmationLinkError } from "../errors.ts";
import { confirmWithToken, type EmailConfirmation, hashConfirmationToken } from "../notifications/index.ts";
import type { EmailConfirmationRepository } from "../ports/notifications.ts";

export async function confirmEmailAddress(
  deps: { confirmations: EmailConfirmationRepository },
  input: { token: string; now: string },
): Promise<EmailConfirmation> {
  const tokenHash = hashConfirmationToken(input.token);
  const result = confirmWithToken(
    await deps.confirmations.findByTokenHash(tokenHash),
    input.token,
    input.now,
  );
  if (!result.ok) throw new ConfirmationLinkError(result.reason);
  if (!(await deps.confirmations.confirm(result.confirmation, tokenHash)))
    throw new ConfirmationLinkError("unknown");
  return result.confirmation;
}
