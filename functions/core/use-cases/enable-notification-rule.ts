/** Switches one of the caller's rules on (idempotent); an enabled ProActive rule requests its sweep. */
import type { NotificationRule } from "../notifications/index.ts";
import {
  type AddressConfirmationDeps,
  askAddressConfirmation,
  type ConfirmationLinkInput,
} from "./shared/email-confirmations.ts";
import { type NotificationRuleDeps, switchRule } from "./shared/notification-rules.ts";

/** An Email rule's NotifyTo address not confirmed yet is mailed its link. */
export async function enableNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps"> & {
    addressConfirmation?: AddressConfirmationDeps;
  },
  input: { forwarderId: string; id: number; now: string; confirmationLink?: ConfirmationLinkInput },
): Promise<NotificationRule> {
  const { confirmationLink, ...switched } = input;
  const rule = await switchRule(deps, { ...switched, enabled: true });
  if (deps.addressConfirmation && confirmationLink)
    await askAddressConfirmation(deps.addressConfirmation, rule, { ...confirmationLink, now: input.now });
  return rule;
}
