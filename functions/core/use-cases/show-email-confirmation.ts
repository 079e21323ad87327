/**
 * What a confirmation link is about, read-only: the pending confirmation its token
 * names, for the page whose button confirms it. Used, replaced and expired links are refused (404).
 */
import { ConfirmationLinkError } from "../errors.ts";
import { confirmWithToken, type EmailConfirmation, hashConfirmationToken } from "../notifications/index.ts";
import type { EmailConfirmationRepository } from "../ports/notifications.ts";

export async function showEmailConfirmation(
  deps: { confirmations: EmailConfirmationRepository },
  input: { token: string; now: string },
): Promise<EmailConfirmation> {
  const found = await deps.confirmations.findByTokenHash(hashConfirmationToken(input.token));
  const result = confirmWithToken(found, input.token, input.now);
  if (!result.ok || !found) throw new ConfirmationLinkError(result.ok ? "unknown" : result.reason);
  return found;
}
