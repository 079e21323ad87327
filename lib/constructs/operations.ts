/**
 * What the people running the service look at: one CloudWatch dashboard (carrier messages and their
 * refusals, route maps changed, events matched, deliveries by outcome and their latency, parked
 * messages, EventBridge Scheduler, SES feedback, the API) fed by the handlers' Powertools EMF metrics
 * (functions/contracts/metrics.ts) and the AWS services' own; and the alarms beyond the parking
 * queues' (lib/constructs/messaging.ts): delivery failure rate, API 5xx rate and p99 latency, every
 * one acting on the alarm topic.
 */
import { Duration, Stack } from "aws-cdk-lib";
import type { RestApi } from "aws-cdk-lib/aws-apigateway";
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ILogGroup } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import {
  DELIVERY_OUTCOMES,
  METRIC_NAMES,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
} from "../../functions/contracts/metrics.ts";

/** Alarm thresholds (README "Operations" lists them). */
export const ALARM_THRESHOLDS = {
  /** Percent of deliveries that ended failed (failed / (delivered + failed)), over 3 of 3 × 5 min. */
  deliveryFailureRatePercent: 10,
  /** Percent of API requests answered 5xx, over 3 of 3 × 5 min. */
  api5xxRatePercent: 5,
  /** API p99 latency in ms, over 3 of 3 × 5 min. */
  apiLatencyP99Ms: 3_000,
} as const;

const PERIOD = Duration.minutes(5);

/** The EventBridge Scheduler metrics of the check group (AWS/Scheduler, dimension ScheduleGroup). */
export const SCHEDULER_METRICS = [
  "TargetErrorCount",
  "InvocationDroppedCount",
  "InvocationsSentToDeadLetterCount",
  "InvocationsFailedToBeSentToDeadLetterCount",
  "InvocationThrottleCount",
] as const;

export interface OperationsProps {
  alarmTopic: ITopic;
  api: RestApi;
  /** Every queue where failed messages are parked, by what the dashboard calls it. */
  parkingQueues: ReadonlyArray<{ label: string; queue: IQueue }>;
  /** The check group's name (Scheduler metrics). */
  scheduleGroupName: string;
  /** Log groups of the pipeline's functions, for the dashboard's recent-errors query. */
  pipelineLogGroups: readonly ILogGroup[];
}

/** A metric the handlers emit (namespace RouteMapTracker, dimension service + `dimensions`). */
export function serviceMetric(
  name: string,
  options: { dimensions?: Record<string, string>; statistic?: string; label?: string } = {},
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE, ...options.dimensions },
    statistic: options.statistic ?? "Sum",
    period: PERIOD,
    ...(options.label ? { label: options.label } : {}),
  });
}

/** The Logs Insights query the dashboard runs and the README recommends: the newest errors. */
export const RECENT_ERRORS_QUERY = [
  "fields @timestamp, service, level, message, requestId, error.message",
  'filter level = "ERROR" or level = "WARN"',
  "sort @timestamp desc",
  "limit 50",
];

export class Operations extends Construct {
  readonly dashboard: Dashboard;
  readonly deliveryFailureRate: Alarm;
  readonly api5xxRate: Alarm;
  readonly apiLatency: Alarm;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const onAlarmTopic = new SnsAction(props.alarmTopic);
    const outcome = (value: string) =>
      serviceMetric(METRIC_NAMES.deliveries, { dimensions: { Outcome: value }, label: value });

    const failureRate = new MathExpression({
      label: "Failed deliveries (%)",
      expression: "IF((d + f) > 0, 100 * f / (d + f), 0)",
      usingMetrics: { d: outcome("delivered"), f: outcome("failed") },
      period: PERIOD,
    });
    this.deliveryFailureRate = this.alarm("DeliveryFailureRate", onAlarmTopic, {
      description: `More than ${ALARM_THRESHOLDS.deliveryFailureRatePercent}% of deliveries failed (refused for good, retries exhausted or webhook gone) for 15 minutes`,
      metric: failureRate,
      threshold: ALARM_THRESHOLDS.deliveryFailureRatePercent,
    });

    const api5xxRate = new MathExpression({
      label: "API 5xx (%)",
      expression: "IF(requests > 0, 100 * errors / requests, 0)",
      usingMetrics: {
        errors: props.api.metricServerError({ period: PERIOD, statistic: "Sum" }),
        requests: props.api.metricCount({ period: PERIOD, statistic: "Sum" }),
      },
      period: PERIOD,
    });
    this.api5xxRate = this.alarm("Api5xxRate", onAlarmTopic, {
      description: `More than ${ALARM_THRESHOLDS.api5xxRatePercent}% of API requests answered 5xx for 15 minutes`,
      metric: api5xxRate,
      threshold: ALARM_THRESHOLDS.api5xxRatePercent,
    });
    const apiLatencyP99 = props.api.metricLatency({ period: PERIOD, statistic: "p99", label: "p99" });
    this.apiLatency = this.alarm("ApiLatencyP99", onAlarmTopic, {
      description: `API p99 latency above ${ALARM_THRESHOLDS.apiLatencyP99Ms} ms for 15 minutes`,
      metric: props.api.metricLatency({ period: PERIOD, statistic: "p99" }),
      threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
    });

    const scheduler = (name: string) =>
      new Metric({
        namespace: "AWS/Scheduler",
        metricName: name,
        dimensionsMap: { ScheduleGroup: props.scheduleGroupName },
        statistic: "Sum",
        period: PERIOD,
        label: name,
      });
    const search = (metric: string, dimension: string, label: string): IMetric =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},${dimension},service} MetricName="${metric}"', 'Sum', ${PERIOD.toSeconds()})`,
        usingMetrics: {},
        label,
        period: PERIOD,
      });

    this.dashboard = new Dashboard(this, "Dashboard", { defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: [
          "# Route Map Tracker",
          "Carrier messages in, route maps changed, events matched, deliveries out. Parked messages wait on the DLQs (replay: README, *Operations*).",
        ].join("\n\n"),
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Carrier messages ingested and refused",
        left: [serviceMetric(METRIC_NAMES.messagesIngested, { label: "ingested" })],
        right: [search(METRIC_NAMES.ingestErrors, "ErrorClass", "refused by class")],
        width: 8,
      }),
      new GraphWidget({
        title: "Route maps changed, events matched, deliveries queued",
        left: [
          serviceMetric(METRIC_NAMES.routeMapsChanged, { label: "route maps changed" }),
          serviceMetric(METRIC_NAMES.eventsMatched, { label: "events matched" }),
          serviceMetric(METRIC_NAMES.deliveriesQueued, { label: "deliveries queued" }),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: "Deliveries by outcome",
        left: DELIVERY_OUTCOMES.map(outcome),
        right: [failureRate],
        stacked: false,
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Delivery latency (event recorded -> delivered)",
        left: ["p50", "p99"].map((statistic) =>
          serviceMetric(METRIC_NAMES.deliveryLatency, { statistic, label: statistic }),
        ),
        leftYAxis: { label: "ms", showUnits: false },
        width: 8,
      }),
      new GraphWidget({
        title: "Parked messages (dead-letter and failure queues)",
        left: props.parkingQueues.map(({ label, queue }) =>
          queue.metricApproximateNumberOfMessagesVisible({
            period: Duration.minutes(1),
            label,
            statistic: "Maximum",
          }),
        ),
        width: 8,
      }),
      new GraphWidget({
        title: "EventBridge Scheduler errors",
        left: SCHEDULER_METRICS.map(scheduler),
        right: [search(METRIC_NAMES.schedulerErrors, "Operation", "calls refused")],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "API requests and errors",
        left: [
          props.api.metricCount({ period: PERIOD, statistic: "Sum", label: "requests" }),
          props.api.metricClientError({ period: PERIOD, statistic: "Sum", label: "4xx" }),
          props.api.metricServerError({ period: PERIOD, statistic: "Sum", label: "5xx" }),
        ],
        right: [api5xxRate],
        width: 8,
      }),
      new GraphWidget({
        title: "API latency",
        left: [props.api.metricLatency({ period: PERIOD, statistic: "p50", label: "p50" }), apiLatencyP99],
        leftYAxis: { label: "ms", showUnits: false },
        width: 8,
      }),
      new GraphWidget({
        title: "SES bounces and complaints",
        left: ["bounce", "complaint"].map((kind) =>
          serviceMetric(METRIC_NAMES.emailFeedback, { dimensions: { Feedback: kind }, label: kind }),
        ),
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new AlarmStatusWidget({
        title: "Alarms",
        alarms: [this.deliveryFailureRate, this.api5xxRate, this.apiLatency],
        width: 8,
        height: 6,
      }),
      new LogQueryWidget({
        title: "Newest errors and warnings of the pipeline",
        logGroupNames: props.pipelineLogGroups.map((group) => group.logGroupName),
        queryLines: RECENT_ERRORS_QUERY,
        width: 16,
        height: 6,
      }),
    );
  }

  /** https://<region>.console.aws.amazon.com/cloudwatch/home?region=<region>#dashboards:name=<name> */
  dashboardUrl(): string {
    const { region } = Stack.of(this);
    return `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards:name=${this.dashboard.dashboardName}`;
  }

  private alarm(
    id: string,
    action: SnsAction,
    props: { description: string; metric: IMetric; threshold: number },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: props.description,
      metric: props.metric,
      threshold: props.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    return alarm;
  }
}
