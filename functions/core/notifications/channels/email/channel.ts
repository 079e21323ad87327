/**
 * The e-mail channel: an Email rule's NotifyTo address, mailed through SES. The address must not be
 * suppressed (SES bounce or complaint) and must have been confirmed by its forwarder.
 */
import type {
  EmailConfirmationRepository,
  EmailSender,
  EmailSuppressionList,
  SubscriptionRepository,
} from "../../../ports/notifications.ts";
import { normaliseAddress, notConfirmedReason } from "../../email-confirmations.ts";
import { renderEventPayload } from "../../payload.ts";
import type { DeliveryChannel } from "../channel.ts";
import { currentRule, isRuleJob } from "../current-rule.ts";
import { suppressedReason } from "../email-suppressions.ts";
import { fromSes } from "../results.ts";
import { composeEmail, type EmailComposeDeps, type EmailTarget } from "./compose.ts";

export interface EmailChannelDeps extends EmailComposeDeps {
  subscriptions: SubscriptionRepository;
  email: EmailSender;
  /**
   * Confirmed NotifyTo addresses: an e-mail to an address its forwarder has not
   * had confirmed is parked, never sent. Absent only in tests that do not care.
   */
  confirmations?: EmailConfirmationRepository;
  /**
   * Addresses SES reported bouncing for good or complaining: an e-mail to one is logged "suppressed",
   * never sent. Absent only in tests that do not care.
   */
  suppressions?: EmailSuppressionList;
}

export const emailChannel: DeliveryChannel<EmailTarget, EmailChannelDeps> = {
  kind: "email",

  async resolve(job, deps, attempt) {
    if (!isRuleJob(job)) return null;
    const current = await currentRule(job, deps.subscriptions, attempt);
    if (!current.ok) return current;
    const rule = current.target;
    if (rule.channel !== "Email") return null;
    const address = normaliseAddress(rule.notifyTo);
    const suppressed = await suppressedReason(deps.suppressions, address);
    if (suppressed) return { ok: false, suppressed: true, reason: suppressed };
    const { confirmations } = deps;
    const confirmation = confirmations ? await confirmations.get(rule.owner.forwarderId, address) : null;
    if (confirmations && confirmation?.status !== "confirmed")
      // Held, not lost: confirming the address releases it (use-cases/shared/held-alerts.ts).
      return { ok: false, reason: notConfirmedReason(address) };
    return {
      ok: true,
      target: {
        job,
        recipient: rule.owner,
        to: rule.notifyTo,
        headerItems: rule.headerItems,
        ruleId: rule.id,
        shareLinkHours: rule.shareLinkHours ?? null,
        ...(rule.alert.kind === "ProActive" ? { proActiveMinutes: rule.alert.minutes } : {}),
      },
    };
  },

  async send(target, deps, attempt) {
    const payload = renderEventPayload(target.job.event, target.recipient);
    const { email, shareLink } = await composeEmail(deps, target, payload, attempt);
    const sent = await deps.email.send({
      to: target.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
    });
    if (!shareLink) return fromSes(sent);
    // A retry of this delivery sends the same share link instead of making another.
    const retryJob = { ...target.job, shareLink: { id: shareLink.id, token: shareLink.token } };
    return { ...fromSes(sent, `; share link ${shareLink.id} valid until ${shareLink.expiresAt}`), retryJob };
  },
};
