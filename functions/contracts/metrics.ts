/**
 * The service's own CloudWatch metrics, described once for the handlers that emit them (Powertools
 * EMF, functions/adapters/metrics.ts) and the dashboard and alarms that read them
 * (lib/constructs/operations.ts). Every metric carries the `service` dimension (Powertools' service
 * name, POWERTOOLS_SERVICE_NAME of every function) plus the dimensions named here.
 */

export const METRICS_NAMESPACE = "RouteMapTracker";
/** POWERTOOLS_SERVICE_NAME of every function (lib/constructs/handler-function.ts). */
export const METRICS_SERVICE = "route-map-tracker";

export const METRIC_NAMES = {
  /** Carrier messages stored by POST /carrier/messages (Count). */
  messagesIngested: "MessagesIngested",
  /** Refused or failed ingest requests (Count), dimension ErrorClass: the problem slug, or "server-error". */
  ingestErrors: "IngestErrors",
  /** Route maps a carrier message changed (Count). */
  routeMapsChanged: "RouteMapsChanged",
  /** Outbox events the matcher handled (Count). */
  eventsMatched: "EventsMatched",
  /** Delivery jobs queued for matching rules and webhooks (Count). */
  deliveriesQueued: "DeliveriesQueued",
  /** Delivery attempts (Count), dimension Outcome (DELIVERY_OUTCOMES). */
  deliveries: "Deliveries",
  /** Event recorded -> delivered, per successful delivery (Milliseconds). */
  deliveryLatency: "DeliveryLatency",
  /** EventBridge Scheduler calls that failed (Count), dimension Operation. */
  schedulerErrors: "SchedulerErrors",
  /** SES bounces and complaints received (Count), dimension Feedback: bounce | complaint. */
  emailFeedback: "EmailFeedback",
  /** DynamoDB read units a call consumed (Count), dimension Operation: `<table>.<command>`. */
  readCapacityUnits: "ReadCapacityUnits",
  /** DynamoDB write units a call consumed (Count, transactions billed double), dimension Operation. */
  writeCapacityUnits: "WriteCapacityUnits",
  /** Stored route-map changes the predictions failed to keep, learn or score (Count). */
  predictionErrors: "PredictionErrors",
} as const;

/**
 * The Outcome dimension of Deliveries: delivered; retried (the attempt failed, another is planned);
 * failed (sent and refused for good, retries exhausted, or the webhook answered 410); parked (not sent:
 * the target changed, the address is unconfirmed, or the job could not be completed); suppressed (not
 * sent: the address bounced or complained before).
 */
export const DELIVERY_OUTCOMES = ["delivered", "retried", "failed", "parked", "suppressed"] as const;
export type DeliveryMetricOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Problem slug of a 5xx answer in IngestErrors' ErrorClass dimension. */
export const SERVER_ERROR_CLASS = "server-error";
