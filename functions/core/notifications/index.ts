/**
 * Notifications core: rules, webhooks, customer endpoints, matching, rendering, signing, retries, SSRF.
 * What the other layers use of it; helpers used only inside the folder are not re-exported.
 */
export { GUID_PATTERN, type HeaderItemCode, maskSecret, type SubscriberIdentity } from "./common.ts";
export { CONFIRMATION_PAGE_CSP, confirmationPage, type HeldAlertsOutcome } from "./confirmation-page.ts";
export {
  type CustomerEndpoint,
  type CustomerEndpointRequest,
  CustomerEndpointRequestSchema,
  type CustomerEndpointUpdate,
  CustomerEndpointUpdateSchema,
  customerEndpointFromRequest,
  customerEndpointToApi,
  isEndpointUsableBy,
  rulesUsingEndpoint,
  updatedCustomerEndpoint,
} from "./customer-endpoints.ts";
export {
  type AttemptOutcome,
  classifyOutcome,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_SECONDS,
  MAX_SQS_DELAY_SECONDS,
  MIN_RETRY_AFTER_SECONDS,
  type NextAttempt,
  nextAttemptDelay,
  parseRetryAfter,
  plannedRetrySeconds,
  RETRY_SCHEDULE_SECONDS,
  retryDelaySeconds,
  splitDelay,
} from "./delivery-policy.ts";
export { emailSubject, renderEmail } from "./email.ts";
export {
  CONFIRMATION_TOKEN_PATTERN,
  confirmationEmail,
  confirmationToRequest,
  confirmWithToken,
  type EmailConfirmation,
  hashConfirmationToken,
  normaliseAddress,
} from "./email-confirmations.ts";
export {
  type DeliveryTarget,
  eventLookupKeys,
  type MatchableEvent,
  matchEvent,
  matchesFilters,
  onePerAddress,
  type Subscription,
  SubscriptionIndex,
  subscriptionIndexKeys,
  subscriptionKey,
} from "./matching.ts";
export {
  EVENT_PAYLOAD_FIELDS,
  type EventPayload,
  type PayloadEvent,
  type PayloadRecipient,
  renderEventPayload,
} from "./payload.ts";
export { identicalRule } from "./rule-identity.ts";
export {
  applyRuleUpdate,
  type NotificationRule,
  type NotificationRuleRequest,
  NotificationRuleRequestSchema,
  NotificationRuleUpdateSchema,
  type RuleAlert,
  type RuleValidationContext,
  ruleFromRequest,
  ruleToApi,
  validateRuleRequest,
} from "./rules.ts";
export { pskKeyBytes, signWebhook } from "./signing.ts";
export { assertTargetAllowed, classifyAddress, type DeliveryMode, type TargetCheck } from "./ssrf.ts";
export { renderWebhookBody } from "./webhook-body.ts";
export {
  applyWebhookUpdate,
  disableWebhook,
  isWebhookActive,
  jwtProblem,
  markWebhookVerificationFailed,
  markWebhookVerified,
  parseAwbFilter,
  type Webhook,
  type WebhookRequest,
  WebhookRequestSchema,
  WebhookUpdateSchema,
  webhookFromRequest,
  webhookToApi,
} from "./webhooks.ts";
