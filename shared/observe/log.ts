/**
 * Structured logs: one JSON object a line on standard output, the shape
 * CloudWatch Logs indexes (and Logs Insights queries by field). Written
 * with `process.stdout.write`, not `console`, so Lambda adds no text prefix
 * and a line stays one JSON object. `LOG_LEVEL` (debug, info, warn, error;
 * default info) is read at each call. Local mode replaces the output with
 * one readable line an event (infra/local/console-log.ts); tests listen with
 * {@link onLog}. Fields never carry tokens, secrets or message contents:
 * callers pass identifiers, statuses and durations only.
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

/** An event as the JSON line Lambda writes (time first, then the event), without its line end. */
export const jsonLine = (event: LogEvent) => JSON.stringify({ time: new Date().toISOString(), ...event });

/** Writes each event as its JSON line. */
export const jsonLines: LogOutput = (event) => {
  process.stdout.write(`${jsonLine(event)}\n`);
};

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

/** Writes one event, if its level is at or above `LOG_LEVEL` (`info` when unset or unknown). Never throws. */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const asked = LEVELS.indexOf(process.env.LOG_LEVEL?.trim().toLowerCase() as LogLevel);
  if (LEVELS.indexOf(level) < (asked < 0 ? 1 : asked)) return;
  const event: LogEvent = { level, msg, ...fields };
  try {
    output?.(event);
    for (const listener of listeners) listener(event);
  } catch {
    // A log line never breaks the work it describes.
  }
}

/** An error as a log field: its name and message, cut to 500 characters (no stack, no request body). */
export function errorField(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 500);
}
