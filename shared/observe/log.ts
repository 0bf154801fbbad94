import { emit, output as metricOutput, stdoutLine } from './emit.js';
import type { DimensionName, MetricKey } from './metrics.js';

/**
 * Structured logs: one JSON object a line on standard output, the shape
 * CloudWatch Logs indexes (and Logs Insights queries by field). Written
 * with `process.stdout.write`, not `console`, so Lambda adds no text prefix
 * and a line stays one JSON object. `LOG_LEVEL` (debug, info, warn, error;
 * default info) is read at each call. Local mode replaces the output with
 * one readable line an event (infra/local/console-log.ts); tests listen with
 * {@link onLog}. Fields never carry tokens, secrets or message contents:
 * callers pass identifiers, statuses and durations only.
 *
 * An event may carry metrics ({@link log}'s `metrics`): in Lambda the event
 * and its metrics are then ONE line, the embedded-metric-format document of
 * shared/observe/emit.ts with the event's fields at its root and no `time`
 * (`_aws.Timestamp` is the time), so a request or a job run costs one line
 * of log ingestion, not two.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels, least severe first. */
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * One event. `msg` names what happened (`request`, `job`, `platform call
 * failed`, `retry`...), the same words for every event of a kind, so the
 * readable local line and a Logs Insights query can tell kinds apart.
 */
export interface LogEvent {
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

export type LogOutput = (event: LogEvent) => void;

/**
 * An output writing each event as the JSON line Lambda writes (time first,
 * then the event) through `write` (which adds the line end). When `write`
 * is also the metric output (`setMetricOutput`), an event carrying metrics
 * is written through it as one EMF line instead of two lines; the bench
 * counts Lambda's bytes this way.
 */
export function jsonLinesTo(write: (line: string) => void): LogOutput {
  // `lines` lets log() see where this output writes.
  return Object.assign((event: LogEvent) => write(JSON.stringify({ time: new Date().toISOString(), ...event })), { lines: write });
}

/** Writes each event as its JSON line on standard output (Lambda's default). */
export const jsonLines: LogOutput = jsonLinesTo(stdoutLine);

let output: LogOutput | null = jsonLines;
const listeners = new Set<LogOutput>();

/** Replaces where events are written (null: nowhere); answers the previous output. */
export function setLogOutput(next: LogOutput | null): LogOutput | null {
  const previous = output;
  output = next;
  return previous;
}

/** Calls `listener` with every event written at the current level; answers a function that stops it. */
export function onLog(listener: LogOutput): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Writes one event, if its level is at or above `LOG_LEVEL` (`info` when
 * unset or unknown), and emits `values` (sharing their `dimensions`' values,
 * as {@link emit} takes them) whatever the level. When the log output is a
 * JSON-lines output ({@link jsonLinesTo}; {@link jsonLines}, the default)
 * whose writer is also the metric output (the default: both write to
 * standard output), the event and its metrics are one EMF line on that
 * writer. Otherwise each output gets its part as if there were two calls:
 * a replaced log output (local mode's readable line) the event, the metric
 * output the plain EMF line, a null output nothing. Listeners ({@link onLog},
 * `onMetric`) see the event and the values either way. Never throws.
 */
export function log(
  level: LogLevel,
  msg: string,
  fields: Record<string, unknown> = {},
  values?: Partial<Record<MetricKey, number>>,
  dimensions?: Partial<Record<DimensionName, string>>,
): void {
  const asked = LEVELS.indexOf(process.env.LOG_LEVEL?.trim().toLowerCase() as LogLevel);
  const event: LogEvent | null = LEVELS.indexOf(level) >= (asked < 0 ? 1 : asked) ? { level, msg, ...fields } : null;
  const oneLine = event && values && (output as { lines?: unknown } | null)?.lines === metricOutput;
  if (event) {
    try {
      if (!oneLine) output?.(event);
      for (const listener of listeners) listener(event);
    } catch {
      // A log line never breaks the work it describes.
    }
  }
  if (values) emit(values, dimensions, oneLine ? event : undefined);
}

/** An error as a log field: its name and message, cut to 500 characters (no stack, no request body). */
export function errorField(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 500);
}
