import { type DimensionName, METRICS, METRIC_NAMESPACE, type MetricKey } from './metrics.js';

/**
 * Writes metrics as CloudWatch embedded metric format: one JSON line on
 * standard output per call, holding each value, its dimensions' values,
 * and one directive per metric naming the namespace, the metric's unit and
 * its dimension sets (shared/observe/metrics.ts). CloudWatch Logs turns the
 * line into metrics; nothing is sent at run time, so a function pays a
 * `JSON.stringify` per request and no client. Local mode writes nothing
 * (`setMetricOutput(null)`) and tests listen with {@link onMetric}.
 */

/** One value as emitted: the metric's name, the value, the dimensions' values it was emitted with. */
export interface MetricValue {
  name: string;
  value: number;
  dimensions: Partial<Record<DimensionName, string>>;
}

export type MetricOutput = (line: string) => void;

/** Writes a line to standard output, as Lambda hands it to CloudWatch Logs: the default writer of log events and of EMF lines. */
export const stdoutLine: MetricOutput = (line) => {
  process.stdout.write(`${line}\n`);
};

/** Where the EMF lines go now (null: nowhere); {@link setMetricOutput} replaces it. */
export let output: MetricOutput | null = stdoutLine;
const listeners = new Set<(value: MetricValue) => void>();

/** Replaces where the EMF lines go (null: nowhere); answers the previous output. */
export function setMetricOutput(next: MetricOutput | null): MetricOutput | null {
  const previous = output;
  output = next;
  return previous;
}

/** Calls `listener` with every value emitted; answers a function that stops it. */
export function onMetric(listener: (value: MetricValue) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The EMF line of some values sharing their dimensions' values. `fields`
 * (a log event's) lead the document: CloudWatch reads only `_aws`, the
 * dimensions and the values, and Logs Insights still finds the rest by name.
 */
export function emfLine(
  values: Partial<Record<MetricKey, number>>,
  dimensions: Partial<Record<DimensionName, string>>,
  timestamp: number,
  fields: Record<string, unknown> = {},
): string {
  const root: Record<string, unknown> = { ...dimensions };
  const directives = Object.entries(values).map(([key, value]) => {
    const metric = METRICS[key as MetricKey];
    root[metric.name] = value;
    return {
      Namespace: METRIC_NAMESPACE,
      // Only the sets whose every dimension has a value: a set naming a missing one would drop the metric.
      Dimensions: metric.dimensions.filter((set) => set.every((name) => dimensions[name] !== undefined)),
      Metrics: [{ Name: metric.name, Unit: metric.unit }],
    };
  });
  return JSON.stringify({ ...fields, _aws: { Timestamp: timestamp, CloudWatchMetrics: directives }, ...root });
}

/**
 * Emits values sharing their dimensions' values (`emit({ votes: 1 })`,
 * `emit({ jobsRun: 1 }, { Job: job })`). `fields` ride in the same line
 * ({@link log} passes its event there when both would reach one writer);
 * listeners see the values only. Never throws.
 */
export function emit(
  values: Partial<Record<MetricKey, number>>,
  dimensions: Partial<Record<DimensionName, string>> = {},
  fields?: Record<string, unknown>,
): void {
  try {
    output?.(emfLine(values, dimensions, Date.now(), fields));
    for (const listener of listeners) {
      for (const [key, value] of Object.entries(values)) listener({ name: METRICS[key as MetricKey].name, value, dimensions });
    }
  } catch {
    // A metric never breaks the work it counts.
  }
}
