/**
 * The service's metrics, as data: the namespace, each metric's name, unit
 * and the dimension sets it is published under (CloudWatch embedded metric
 * format). Alarms, the dashboard and the docs read these names from here;
 * renaming one is a change of the operations contract.
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
  description: string;
}

const { module, statusClass: status, job } = DIMENSIONS;

export const METRICS = {
  requests: {
    name: 'Requests',
    unit: 'Count',
    dimensions: [[module, status], [status]],
    description: 'HTTP requests answered, by module and status class',
  },
  errors: {
    name: 'Errors',
    unit: 'Count',
    dimensions: [[module, status], [status]],
    description: 'HTTP requests answered 4xx or 5xx, by module and status class',
  },
  requestDuration: {
    name: 'RequestDuration',
    unit: 'Milliseconds',
    dimensions: [[module]],
    description: 'Time from the handler receiving a request to its answer, by module',
  },
  platformRateLimited: {
    name: 'PlatformRateLimited',
    unit: 'Count',
    dimensions: [[]],
    description: 'Platform answers 429 (each one, waited out or not)',
  },
  platformServerErrors: {
    name: 'PlatformServerErrors',
    unit: 'Count',
    dimensions: [[]],
    description: 'Platform answers 5xx (each attempt)',
  },
  tableThrottles: {
    name: 'TableThrottles',
    unit: 'Count',
    dimensions: [[]],
    description: 'DynamoDB ProvisionedThroughputExceeded or Throttling errors the service saw after the SDK retries',
  },
  jobsRun: {
    name: 'JobsRun',
    unit: 'Count',
    dimensions: [[job], []],
    description: 'Scheduled work items handled (one per delivery that ran the job, whatever its outcome)',
  },
  jobsRetried: {
    name: 'JobsRetried',
    unit: 'Count',
    dimensions: [[job], []],
    description: 'Scheduled work items that failed and will be delivered again',
  },
  jobsParked: {
    name: 'JobsParked',
    unit: 'Count',
    dimensions: [[job], []],
    description: 'Scheduled work items given up on (last delivery failed, or sent too often without completing)',
  },
  itemsAnnounced: {
    name: 'ItemsAnnounced',
    unit: 'Count',
    dimensions: [[]],
    description: 'Feed items announced in a channel (socials)',
  },
  votes: {
    name: 'Votes',
    unit: 'Count',
    dimensions: [[]],
    description: 'Poll votes recorded: each vote or vote removal a poll took (polls)',
  },
  entries: {
    name: 'Entries',
    unit: 'Count',
    dimensions: [[]],
    description: 'Giveaway entries recorded: each member who entered (giveaways)',
  },
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;
