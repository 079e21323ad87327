/**
 * The service's CloudWatch metrics as Powertools EMF lines on standard output (CloudWatch Logs turns
 * them into metrics in the RouteMapTracker namespace, functions/contracts/metrics.ts). Handlers count
 * what their use cases returned; the core never counts. One EMF line per dimension set and call, so
 * records processed in parallel never mix their dimensions. POWERTOOLS_METRICS_DISABLED=true (the
 * local runner) turns every line off; nothing is buffered, so nothing needs flushing.
 */
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import {
  type DeliveryMetricOutcome,
  METRIC_NAMES,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
} from "../contracts/metrics.ts";

export type MetricName = (typeof METRIC_NAMES)[keyof typeof METRIC_NAMES];

export interface MetricPoint {
  name: MetricName;
  value: number;
  /** Count when absent. */
  unit?: "Count" | "Milliseconds";
  /** Dimensions besides `service`. */
  dimensions?: Readonly<Record<string, string>>;
}

/** Emits metric points (what a handler's use case did). */
export type MetricsRecorder = (points: readonly MetricPoint[]) => void;

const UNITS = { Count: MetricUnit.Count, Milliseconds: MetricUnit.Milliseconds } as const;

const dimensionKey = (point: MetricPoint) => JSON.stringify(Object.entries(point.dimensions ?? {}).sort());

/** Powertools EMF on standard output: the recorder every handler is wired with. */
export const emfMetrics: MetricsRecorder = (points) => {
  const groups = new Map<string, MetricPoint[]>();
  for (const point of points) {
    const key = dimensionKey(point);
    groups.set(key, [...(groups.get(key) ?? []), point]);
  }
  for (const group of groups.values()) {
    const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
    const dimensions = group[0]?.dimensions;
    if (dimensions) metrics.addDimensions({ ...dimensions });
    for (const point of group) metrics.addMetric(point.name, UNITS[point.unit ?? "Count"], point.value);
    metrics.publishStoredMetrics();
  }
};

/** Counts one failed EventBridge Scheduler call (the scheduler adapters). */
export function countSchedulerError(operation: string): void {
  emfMetrics([{ name: METRIC_NAMES.schedulerErrors, value: 1, dimensions: { Operation: operation } }]);
}

/** What a carrier message request stored: messages, and how many changed their route map. */
export function ingestPoints(applied: ReadonlyArray<{ changed: boolean }>): MetricPoint[] {
  return [
    { name: METRIC_NAMES.messagesIngested, value: applied.length },
    { name: METRIC_NAMES.routeMapsChanged, value: applied.filter((message) => message.changed).length },
  ];
}

/**
 * An ingest request answered with an error: its problem slug (4xx) or "server-error" (5xx); and what
 * a partly stored request did store (the problem's `Applied` member).
 */
export function ingestErrorPoints(errorClass: string, problemJson: string): MetricPoint[] {
  const refused: MetricPoint = {
    name: METRIC_NAMES.ingestErrors,
    value: 1,
    dimensions: { ErrorClass: errorClass },
  };
  const applied = appliedOf(problemJson);
  return applied.length > 0 ? [refused, ...ingestPoints(applied)] : [refused];
}

/** The `Applied` member of a problem body ({ Changed } per stored message), or none. */
function appliedOf(problemJson: string): Array<{ changed: boolean }> {
  try {
    const { Applied } = JSON.parse(problemJson) as { Applied?: unknown };
    return Array.isArray(Applied)
      ? Applied.map((message) => ({ changed: (message as { Changed?: unknown })?.Changed === true }))
      : [];
  } catch {
    return [];
  }
}

/** One outbox event matched, and the delivery jobs it queued. */
export function matchPoints(result: { enqueued: readonly unknown[] }): MetricPoint[] {
  return [
    { name: METRIC_NAMES.eventsMatched, value: 1 },
    { name: METRIC_NAMES.deliveriesQueued, value: result.enqueued.length },
  ];
}

/** The Outcome dimension of a delivery attempt's outcome; null for a duplicate (nothing happened). */
export function deliveryMetricOutcome(outcome: string): DeliveryMetricOutcome | null {
  switch (outcome) {
    case "delivered":
      return "delivered";
    case "retry":
      return "retried";
    case "parked":
    case "disabled":
      return "failed";
    case "skipped":
      return "parked";
    case "suppressed":
      return "suppressed";
    default:
      return null;
  }
}

/**
 * One delivery attempt: Deliveries by Outcome, and for a delivery its latency from the event's
 * recording (the carrier message's receipt) to now. `parkedUnfinished`: parked after its last receive.
 */
export function deliveryPoints(
  result: { outcome: string },
  event: { recordedAt: string },
  now: string,
  parkedUnfinished = false,
): MetricPoint[] {
  const outcome =
    parkedUnfinished && result.outcome === "parked" ? "parked" : deliveryMetricOutcome(result.outcome);
  if (!outcome) return [];
  const points: MetricPoint[] = [
    { name: METRIC_NAMES.deliveries, value: 1, dimensions: { Outcome: outcome } },
  ];
  const latency = Date.parse(now) - Date.parse(event.recordedAt);
  if (outcome === "delivered" && Number.isFinite(latency))
    points.push({ name: METRIC_NAMES.deliveryLatency, value: Math.max(0, latency), unit: "Milliseconds" });
  return points;
}

/** One SES bounce or complaint received. */
export function emailFeedbackPoint(kind: "bounce" | "complaint"): MetricPoint {
  return { name: METRIC_NAMES.emailFeedback, value: 1, dimensions: { Feedback: kind } };
}

/** One DynamoDB call's consumed capacity, by Operation (`<table>.<command>`); zero units are left out. */
export function capacityPoints(use: {
  operation: string;
  readUnits: number;
  writeUnits: number;
}): MetricPoint[] {
  const dimensions = { Operation: use.operation };
  return [
    ...(use.readUnits > 0
      ? [{ name: METRIC_NAMES.readCapacityUnits, value: use.readUnits, dimensions }]
      : []),
    ...(use.writeUnits > 0
      ? [{ name: METRIC_NAMES.writeCapacityUnits, value: use.writeUnits, dimensions }]
      : []),
  ];
}
