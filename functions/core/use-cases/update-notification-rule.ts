/** Replaces one of the caller's rules. */
import {
  applyRuleUpdate,
  type NotificationRule,
  type NotificationRuleRequest,
} from "../notifications/index.ts";
import {
  type AddressConfirmationDeps,
  askAddressConfirmation,
  type ConfirmationLinkInput,
} from "./shared/email-confirmations.ts";
import {
  ensureUsableNotifyTo,
  findOwnedRule,
  type NotificationRuleDeps,
  requestSweep,
} from "./shared/notification-rules.ts";
import { ensureNotDuplicate } from "./shared/rule-duplicates.ts";

/**
 * PUT: a full replacement under the same id, owner and creation time. Refused (409) when it would
 * make the rule identical to another of the caller's; a new NotifyTo address is mailed its
 * confirmation link (`addressConfirmation`, absent in tests that do not care).
 */
export async function updateNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps"> & {
    addressConfirmation?: AddressConfirmationDeps;
  },
  input: {
    forwarderId: string;
    id: number;
    request: NotificationRuleRequest;
    now: string;
    confirmationLink?: ConfirmationLinkInput;
  },
): Promise<NotificationRule> {
  const current = await findOwnedRule(deps.subscriptions, input.forwarderId, input.id);
  await ensureUsableNotifyTo(deps.subscriptions, input.request, input.forwarderId);
  const updated = applyRuleUpdate(current, input.request, input.now);
  await ensureNotDuplicate(deps.subscriptions, updated);
  await deps.subscriptions.putRule(updated);
  await requestSweep(deps, updated);
  if (deps.addressConfirmation && input.confirmationLink)
    await askAddressConfirmation(deps.addressConfirmation, updated, {
      ...input.confirmationLink,
      now: input.now,
    });
  return updated;
}
