/** Creates a rule for the caller: within its limit, NotifyTo usable, not a twin, then the sweep request. */
import {
  type NotificationRule,
  type NotificationRuleRequest,
  ruleFromRequest,
  type SubscriberIdentity,
} from "../notifications/index.ts";
import {
  type AddressConfirmationDeps,
  askAddressConfirmation,
  type ConfirmationLinkInput,
} from "./shared/email-confirmations.ts";
import {
  ensureUsableNotifyTo,
  type NotificationRuleDeps,
  requestSweep,
} from "./shared/notification-rules.ts";
import { ensureNotDuplicate } from "./shared/rule-duplicates.ts";
import { insertRuleWithinLimit } from "./shared/subscription-limits.ts";

/**
 * An identical rule is refused (409); a new NotifyTo address of an Email rule is mailed its
 * confirmation link (`addressConfirmation`, absent in tests that do not care).
 */
export async function createNotificationRule(
  deps: NotificationRuleDeps & { addressConfirmation?: AddressConfirmationDeps },
  input: {
    owner: SubscriberIdentity;
    request: NotificationRuleRequest;
    now: string;
    confirmationLink?: ConfirmationLinkInput;
  },
): Promise<NotificationRule> {
  const { owner, request, now } = input;
  await ensureUsableNotifyTo(deps.subscriptions, request, owner.forwarderId);
  // The repository gives the rule its id when it stores it within the limit (no id taken before).
  const draft = ruleFromRequest(request, { id: 0, owner, now });
  await ensureNotDuplicate(deps.subscriptions, draft);
  const rule = await insertRuleWithinLimit(deps.subscriptions, deps.limits, draft);
  await requestSweep(deps, rule);
  if (deps.addressConfirmation && input.confirmationLink)
    await askAddressConfirmation(deps.addressConfirmation, rule, { ...input.confirmationLink, now });
  return rule;
}
