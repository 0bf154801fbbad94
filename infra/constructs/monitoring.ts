import { Duration, Fn, CfnCondition, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DIMENSIONS, METRIC_NAMESPACE, METRICS, type MetricKey } from '#shared/observe/metrics.js';
import { DEFAULT_TIMINGS } from '#shared/scheduler/config.js';
import type { Job } from '../jobs.js';

/**
 * Scheduled work is late when the oldest message of a job queue has waited
 * longer than the producer's horizon (a message is sent up to that long
 * before its due time, delayed) plus two retries: one failed delivery is a
 * platform hiccup, two in a row mean members wait.
 */
export const LATE_WORK_SECONDS = (DEFAULT_TIMINGS.horizonMs + 2 * DEFAULT_TIMINGS.retryMs) / 1000;

/** Platform 429s in five minutes that make a burst (the platform bans an address after 10,000 401/403/429 in ten minutes). */
export const RATE_LIMITED_BURST = 50;

/** The API's 5xx rate (per cent of requests over five minutes) that alarms, and the requests below which a rate means nothing. */
export const API_5XX_PERCENT = 5;
export const API_5XX_MIN_REQUESTS = 20;

const FIVE_MINUTES = Duration.minutes(5);

/** One alarm as data: what it watches, when it fires, and why (docs/operations.md lists the same). */
interface AlarmSpec {
  id: string;
  metric: cloudwatch.IMetric;
  threshold: number;
  /** Periods looked at, and how many of them must breach (default 1 of 1). */
  periods?: number;
  breaching?: number;
  comparison?: cloudwatch.ComparisonOperator;
  why: string;
}

export interface MonitoringProps {
  /** Prefix of every alarm's and the dashboard's name (the root stack's name). */
  namePrefix: string;
  /** Where alarm notices go by e-mail; empty: no subscription (a deploy-time parameter, so it may be a token). */
  alarmEmail: string;
  api: apigw.RestApi;
  table: dynamodb.ITable;
  indexNames: readonly string[];
  /** The `Module` dimension values the dashboard shows a row for. */
  modules: readonly string[];
  /** The jobs (their runs, retries and parked work by module). */
  jobs: readonly Job[];
  /** Each job queue with the jobs it carries and its dead-letter queue (`JobQueues.groups`). */
  queues: readonly { name: string; jobs: readonly Job[]; queue: sqs.IQueue; deadLetters: sqs.IQueue }[];
}

/**
 * The service's alarms, the SNS topic they notify, and one dashboard.
 *
 * Lambda errors and throttles are alarmed on Lambda's account-wide
 * aggregate (the metric without a function dimension) rather than per
 * function: 290 functions would mean 580 alarms (some 58 USD a month), and
 * an alarm's metric math takes at most 10 metrics, fewer than most modules
 * have functions. Route functions answer every failure themselves (the
 * endpoint factory turns any error into a 5xx answer, alarmed by the API's
 * 5xx rate), so a Lambda error is a timeout, a crash or a failed start,
 * and the dashboard and the module's log group say which. This assumes
 * the account and region hold this service alone, as AWS advises for a
 * workload.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  /** Job queue name -> the alarm on its dead-letter queue. */
  readonly deadLetterAlarms = new Map<string, cloudwatch.Alarm>();
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    // CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key: the topic gets its own key.
    const key = new kms.Key(this, 'TopicKey', {
      description: 'Encrypts the alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', { displayName: `${props.namePrefix} alarms`, masterKey: key, enforceSSL: true });
    const subscription = new sns.CfnSubscription(this, 'EmailSubscription', { topicArn: this.topic.topicArn, protocol: 'email', endpoint: props.alarmEmail });
    subscription.cfnOptions.condition = new CfnCondition(this, 'HasEmail', { expression: Fn.conditionNot(Fn.conditionEquals(props.alarmEmail, '')) });

    const action = new actions.SnsAction(this.topic);
    for (const spec of alarmSpecs(props)) {
      const alarm = new cloudwatch.Alarm(this, spec.id, {
        alarmName: `${props.namePrefix}-${spec.id}`,
        alarmDescription: spec.why,
        metric: spec.metric,
        threshold: spec.threshold,
        evaluationPeriods: spec.periods ?? 1,
        datapointsToAlarm: spec.breaching ?? spec.periods ?? 1,
        comparisonOperator: spec.comparison ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No data is no trouble: an idle queue or an API nobody called publishes nothing.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
    }
    for (const { name } of props.queues) this.deadLetterAlarms.set(name, this.alarms.find((a) => a.node.id === deadLetterAlarmId(name))!);

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.namePrefix,
      defaultInterval: Duration.hours(3),
      widgets: dashboardRows(props, this.alarms),
    });
  }
}

const deadLetterAlarmId = (queue: string) => `Parked-${queue.replace('.', '-')}`;
const lateAlarmId = (job: string) => `Late-${job.replace('.', '-')}`;

/** One of the service's own metrics (`shared/observe/metrics.ts`), over five minutes. */
function custom(key: MetricKey, dimensionsMap: Record<string, string> = {}, statistic = 'Sum', label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: METRIC_NAMESPACE, metricName: METRICS[key].name, dimensionsMap, statistic, period: FIVE_MINUTES, label });
}

/** Read and write throttle events of the table and of each index, as one figure. */
function tableThrottles(table: dynamodb.ITable, indexNames: readonly string[]): cloudwatch.MathExpression {
  const metrics: Record<string, cloudwatch.IMetric> = {};
  const scopes: Record<string, string>[] = [{}, ...indexNames.map((name) => ({ GlobalSecondaryIndexName: name }))];
  scopes.forEach((dimensions, i) => {
    for (const kind of ['Read', 'Write'] as const) {
      metrics[`${kind.toLowerCase()}${i}`] = table.metric(`${kind}ThrottleEvents`, {
        dimensionsMap: { TableName: table.tableName, ...dimensions },
        statistic: 'Sum',
        period: FIVE_MINUTES,
      });
    }
  });
  return new cloudwatch.MathExpression({
    expression: Object.keys(metrics)
      .map((name) => `FILL(${name}, 0)`)
      .join(' + '),
    usingMetrics: metrics,
    label: 'Table and index throttle events',
    period: FIVE_MINUTES,
  });
}

function apiErrorRate(props: MonitoringProps): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
    usingMetrics: {
      requests: props.api.metricCount({ statistic: 'Sum', period: FIVE_MINUTES }),
      errors: props.api.metricServerError({ statistic: 'Sum', period: FIVE_MINUTES }),
    },
    label: 'API 5xx (% of requests)',
    period: FIVE_MINUTES,
  });
}

/** Every alarm of the service. */
function alarmSpecs(props: MonitoringProps): AlarmSpec[] {
  const perQueue = props.queues.flatMap(({ name, jobs, queue, deadLetters }): AlarmSpec[] => {
    const carried = jobs.map((job) => job.id).join(', ');
    return [
      {
        id: deadLetterAlarmId(name),
        metric: deadLetters.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(1) }),
        threshold: 1,
        why: `Job queue ${name} (${carried}): work failed on its last delivery and is parked in the dead-letter queue. List it with GET /jobs/parked, fix the cause, replay it with POST /jobs/parked/replay.`,
      },
      {
        id: lateAlarmId(name),
        metric: queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: FIVE_MINUTES }),
        threshold: LATE_WORK_SECONDS,
        why: `Job queue ${name} (${carried}): scheduled work is late: a message has waited over ${LATE_WORK_SECONDS} s (its delay and two retries). The queue's consumer fails or cannot keep up.`,
      },
    ];
  });
  return [
    ...perQueue,
    {
      id: 'JobsParked',
      metric: custom('jobsParked'),
      threshold: 1,
      why: 'Scheduled work was given up on (its last delivery failed, or it was sent too often without completing). See GET /jobs/parked.',
    },
    {
      id: 'Api5xxRate',
      metric: apiErrorRate(props),
      threshold: API_5XX_PERCENT,
      comparison: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      periods: 3,
      breaching: 2,
      why: `Over ${API_5XX_PERCENT}% of API requests answered 5xx in two of the last three 5-minute periods (only periods with ${API_5XX_MIN_REQUESTS} requests or more count).`,
    },
    {
      id: 'LambdaErrors',
      metric: lambda.Function.metricAllErrors({ statistic: 'Sum', period: FIVE_MINUTES }),
      threshold: 1,
      periods: 3,
      breaching: 2,
      why: 'Functions failed (a timeout, a crash, a failed start) in two of the last three 5-minute periods. Route functions answer their own errors, so this is a defect or a dependency hanging: see the module log groups.',
    },
    {
      id: 'LambdaThrottles',
      metric: lambda.Function.metricAllThrottles({ statistic: 'Sum', period: FIVE_MINUTES }),
      threshold: 1,
      periods: 3,
      breaching: 2,
      why: "Invocations were throttled in two of the last three 5-minute periods: the account's concurrency is exhausted (requests answer 5xx, queues back up).",
    },
    {
      id: 'TableThrottles',
      metric: tableThrottles(props.table, props.indexNames),
      threshold: 1,
      periods: 3,
      breaching: 2,
      why: 'The table or an index throttled reads or writes in two of the last three 5-minute periods (a hot partition, or a burst past twice the previous peak).',
    },
    {
      id: 'PlatformRateLimited',
      metric: custom('platformRateLimited'),
      threshold: RATE_LIMITED_BURST,
      why: `The platform answered 429 ${RATE_LIMITED_BURST} times or more in five minutes: the client's pacing is off or a job floods one route (the platform bans an address after 10,000 in ten minutes).`,
    },
  ];
}

const WIDE = 24;
const QUARTER = 6;

function graph(title: string, left: cloudwatch.IMetric[], width = QUARTER, stacked = false): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({ title, left, width, height: 6, stacked });
}

/** The dashboard: alarms at a glance, the service's totals, then a row per module (requests, errors, latency, jobs). */
function dashboardRows(props: MonitoringProps, alarms: cloudwatch.Alarm[]): cloudwatch.IWidget[][] {
  const classes = ['2xx', '4xx', '5xx'];
  const service: cloudwatch.IWidget[] = [
    graph('API requests and 5xx', [
      props.api.metricCount({ statistic: 'Sum', period: FIVE_MINUTES }),
      props.api.metricServerError({ statistic: 'Sum', period: FIVE_MINUTES }),
    ]),
    graph('API latency (p50, p99)', [
      props.api.metricLatency({ statistic: 'p50', period: FIVE_MINUTES }),
      props.api.metricLatency({ statistic: 'p99', period: FIVE_MINUTES }),
    ]),
    graph('Lambda errors and throttles', [
      lambda.Function.metricAllErrors({ statistic: 'Sum', period: FIVE_MINUTES }),
      lambda.Function.metricAllThrottles({ statistic: 'Sum', period: FIVE_MINUTES }),
    ]),
    graph('Table throttles, platform 429 and 5xx', [
      tableThrottles(props.table, props.indexNames),
      custom('platformRateLimited', {}, 'Sum', 'Platform 429'),
      custom('platformServerErrors', {}, 'Sum', 'Platform 5xx'),
    ]),
  ];
  const jobs: cloudwatch.IWidget[] = [
    graph(
      'Oldest job message (s)',
      props.queues.map(({ name, queue }) => queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: FIVE_MINUTES, label: name })),
      WIDE / 2,
    ),
    graph(
      'Parked (dead-letter messages)',
      props.queues.map(({ name, deadLetters }) =>
        deadLetters.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: FIVE_MINUTES, label: name }),
      ),
      WIDE / 2,
    ),
  ];
  const moduleRows = props.modules.map((module): cloudwatch.IWidget[] => {
    const moduleJobs = props.jobs.filter((job) => job.id.split('.')[0] === module).map((job) => job.id);
    return [
      graph(
        `${module}: requests`,
        classes.map((c) => custom('requests', { [DIMENSIONS.module]: module, [DIMENSIONS.statusClass]: c }, 'Sum', c)),
        QUARTER,
        true,
      ),
      graph(
        `${module}: errors`,
        ['4xx', '5xx'].map((c) => custom('errors', { [DIMENSIONS.module]: module, [DIMENSIONS.statusClass]: c }, 'Sum', c)),
      ),
      graph(
        `${module}: latency (ms)`,
        ['p50', 'p90', 'p99'].map((p) => custom('requestDuration', { [DIMENSIONS.module]: module }, p, p)),
      ),
      graph(
        `${module}: jobs run, retried, parked`,
        moduleJobs.flatMap((job) => [
          custom('jobsRun', { [DIMENSIONS.job]: job }, 'Sum', `${job} run`),
          custom('jobsRetried', { [DIMENSIONS.job]: job }, 'Sum', `${job} retried`),
          custom('jobsParked', { [DIMENSIONS.job]: job }, 'Sum', `${job} parked`),
        ]),
      ),
    ];
  });
  return [
    [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms, width: WIDE, height: 4 })],
    service,
    jobs,
    [new cloudwatch.TextWidget({ markdown: '## Per module (requests, errors, latency, jobs)', width: WIDE, height: 1 })],
    ...moduleRows,
  ];
}
