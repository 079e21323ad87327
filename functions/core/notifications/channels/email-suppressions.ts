/**
 * The check every channel that mails makes first (an Email rule's address, a carrier's Email channel):
 * an address SES reported bouncing for good or complaining is never mailed again.
 */
import type { EmailSuppressionList } from "../../ports/notifications.ts";

/** Why the address may not be mailed, as the reason of a resolution; null when it may. */
export async function suppressedReason(
  suppressions: EmailSuppressionList | undefined,
  address: string,
): Promise<string | null> {
  const suppression = suppressions ? await suppressions.get(address) : null;
  if (!suppression) return null;
  const why = suppression.reason === "bounce" ? "it bounced" : "its recipient complained";
  return `e-mail address ${address} is suppressed: ${why} on ${suppression.at} (${suppression.detail})`;
}
