import { type MetricValue, onMetric } from '#shared/observe/emit.js';
import { type LogEvent, onLog } from '#shared/observe/log.js';

/** What this process logged and emitted since `observe()`; `stop()` ends the listening. */
export interface Observed {
  logs: LogEvent[];
  metrics: MetricValue[];
  /** The events with this `msg`. */
  events(msg: string): LogEvent[];
  /** The sum of a metric's values, over those emitted with at least these dimensions' values. */
  total(name: string, dimensions?: MetricValue['dimensions']): number;
  stop(): void;
}

export function observe(): Observed {
  const logs: LogEvent[] = [];
  const metrics: MetricValue[] = [];
  const stops = [onLog((event) => logs.push(event)), onMetric((value) => metrics.push(value))];
  return {
    logs,
    metrics,
    events: (msg) => logs.filter((event) => event.msg === msg),
    total: (name, dimensions = {}) =>
      metrics
        .filter((m) => m.name === name && Object.entries(dimensions).every(([key, value]) => m.dimensions[key as keyof typeof m.dimensions] === value))
        .reduce((sum, m) => sum + m.value, 0),
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}
