/**
 * How patient the scheduler is. Deployed defaults match the queues CDK
 * builds from `infra/jobs.ts` (a 30 s consumer, a visibility timeout six
 * times that, five deliveries before the dead-letter queue, a producer every
 * minute); local mode shortens them through the same environment variables.
 */
export interface SchedulerTimings {
  /**
   * How long a dispatched or claimed item is left alone before the producer
   * sends it again (a lost message, a consumer that died). Longer than a
   * consumer may run.
   */
  leaseMs: number;
  /** The queue's visibility timeout: when a message whose handling failed comes back. */
  retryMs: number;
  /** The producer sends every item due within this window (SQS delays reach 900 s). */
  horizonMs: number;
  /** Deliveries of one message before the queue moves it to its dead-letter queue. */
  maxReceiveCount: number;
  /** Dispatches of one item (lost messages, crashed consumers) before it is parked as dead. */
  maxDispatches: number;
}

/** The deployed defaults. */
export const DEFAULT_TIMINGS: SchedulerTimings = {
  leaseMs: 60_000,
  retryMs: 180_000,
  horizonMs: 120_000,
  maxReceiveCount: 5,
  maxDispatches: 10,
};

/** SQS refuses longer delays. */
export const MAX_DELAY_SECONDS = 900;

function seconds(name: string, fallbackMs: number): number {
  const text = process.env[name];
  if (!text) return fallbackMs;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : fallbackMs;
}

function count(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * The timings in force: `SCHEDULER_LEASE_SECONDS`, `SCHEDULER_RETRY_SECONDS`,
 * `SCHEDULER_HORIZON_SECONDS` and `SCHEDULER_MAX_RECEIVE_COUNT` override the
 * defaults (read at each call, as handlers read their configuration).
 */
export function timingsFromEnv(): SchedulerTimings {
  return {
    leaseMs: seconds('SCHEDULER_LEASE_SECONDS', DEFAULT_TIMINGS.leaseMs),
    retryMs: seconds('SCHEDULER_RETRY_SECONDS', DEFAULT_TIMINGS.retryMs),
    horizonMs: Math.min(seconds('SCHEDULER_HORIZON_SECONDS', DEFAULT_TIMINGS.horizonMs), MAX_DELAY_SECONDS * 1000),
    maxReceiveCount: count('SCHEDULER_MAX_RECEIVE_COUNT', DEFAULT_TIMINGS.maxReceiveCount),
    maxDispatches: DEFAULT_TIMINGS.maxDispatches,
  };
}
