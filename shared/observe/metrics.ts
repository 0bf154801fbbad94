/**
 * The service's metrics, as data: the namespace, each metric's name, unit
 * and the dimension sets it is published under (CloudWatch embedded metric
 * format). Alarms, the dashboard and the docs read these names from here;
 * renaming one is a change of the operations contract. What each counts is
 * said in comments, not fields, so function bundles carry only the names
 * (docs/operations.md lists them).
 */

/** The CloudWatch namespace every metric is published in. */
export const METRIC_NAMESPACE = 'GuildModules';

/** Dimension names. `Module`: a module's path segment, or `service` for routes of none (health, keys). */
export const DIMENSIONS = { module: 'Module', statusClass: 'StatusClass', job: 'Job' } as const;

export type DimensionName = (typeof DIMENSIONS)[keyof typeof DIMENSIONS];

/** The `Module` value of routes outside `/modules/<module>/`. */
export const SERVICE_MODULE = 'service';

/** The `StatusClass` values: `2xx`, `3xx`, `4xx`, `5xx`. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export interface MetricDefinition {
  name: string;
  unit: 'Count' | 'Milliseconds';
  /** Each set is published (an empty set: the metric without dimensions, for service-wide alarms). */
  dimensions: readonly (readonly DimensionName[])[];
}

const { module, statusClass: status, job } = DIMENSIONS;
const byStatus = [[module, status], [status]] as const;
const byModule = [[module]] as const;
const byJob = [[job], []] as const;
const total = [[]] as const;

/** A metric counting events (unit `Count`). */
const count = <N extends string, D extends MetricDefinition['dimensions']>(name: N, dimensions: D) => ({ name, unit: 'Count' as const, dimensions });

export const METRICS = {
  /** HTTP requests answered, by module and status class. */
  requests: count('Requests', byStatus),
  /** HTTP requests answered 4xx or 5xx, by module and status class. */
  errors: count('Errors', byStatus),
  /** Time from the handler receiving a request to its answer, by module. */
  requestDuration: { name: 'RequestDuration', unit: 'Milliseconds', dimensions: byModule },
  /** Platform answers 429 (each one, waited out or not). */
  platformRateLimited: count('PlatformRateLimited', total),
  /** Platform answers 5xx (each attempt). */
  platformServerErrors: count('PlatformServerErrors', total),
  /** DynamoDB ProvisionedThroughputExceeded or Throttling errors the service saw after the SDK retries. */
  tableThrottles: count('TableThrottles', total),
  /** Scheduled work items handled (one per delivery that ran the job, whatever its outcome). */
  jobsRun: count('JobsRun', byJob),
  /** Scheduled work items that failed and will be delivered again. */
  jobsRetried: count('JobsRetried', byJob),
  /** Scheduled work items given up on (last delivery failed, or sent too often without completing). */
  jobsParked: count('JobsParked', byJob),
  /** Feed items announced in a channel (socials). */
  itemsAnnounced: count('ItemsAnnounced', total),
  /** Poll votes recorded: each vote or vote removal a poll took (polls). */
  votes: count('Votes', total),
  /** Giveaway entries recorded: each member who entered (giveaways). */
  entries: count('Entries', total),
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;
