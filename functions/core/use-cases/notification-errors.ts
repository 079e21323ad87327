/**
 * Refusals of the subscription use cases (rules, webhooks, deliveries, customer endpoints). Handlers
 * map them to problem+json (functions/handlers/http/notification-problems.ts). Every one is raised
 * before anything is written, so a refusal changes nothing (DESIGN.md section 6).
 */

/** Unknown, or another forwarder's: the same answer, so existence never leaks (404). */
export class SubscriptionNotFoundError extends Error {
  constructor(
    readonly kind: "rule" | "webhook" | "delivery",
    readonly id: string,
  ) {
    super(`No ${kind} ${id}, or it is not yours.`);
    this.name = "SubscriptionNotFoundError";
  }
}

/** The forwarder already has the maximum number of rules or webhooks (409). */
export class SubscriptionLimitError extends Error {
  constructor(
    readonly kind: "rule" | "webhook",
    readonly limit: number,
  ) {
    super(
      `You already have ${limit} ${kind === "rule" ? "notification rules" : "webhooks"}, the maximum; delete one first.`,
    );
    this.name = "SubscriptionLimitError";
  }
}

/**
 * A well-formed request naming something unusable (422): a NotifyTo GUID support did not register for
 * this forwarder, or a Url the service may never call (scheme, address class).
 */
export class UnusableReferenceError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field} ${reason}.`);
    this.name = "UnusableReferenceError";
  }
}

/** A delivery that is still being attempted cannot be replayed (409). */
export class DeliveryInProgressError extends Error {
  constructor(readonly deliveryId: string) {
    super(`Delivery ${deliveryId} is still being attempted; replay it once it is delivered or parked.`);
    this.name = "DeliveryInProgressError";
  }
}
