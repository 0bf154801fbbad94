import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { errorField, log } from '../observe/log.js';
import { type SchedulerTimings, MAX_DELAY_SECONDS, timingsFromEnv } from './config.js';
import { guildOf, SPREAD, shardsOf } from './keys.js';
import { reportWorkDone } from './observe.js';
import { type JobMessageSender, jobSender } from './sender.js';
import * as store from './store.js';
import { requestItem } from './table-only.js';
import type { DueItem } from './store.js';

/**
 * The durable scheduler every timed feature uses (behaviour §9).
 *
 * Due work is an item in the table, found through a due index. A producer
 * (scheduled Lambda; every second in local mode) sends one SQS message per
 * item falling due within its horizon, delayed to the due time; work due
 * sooner than the next producer run is also sent right when it is scheduled.
 * A consumer claims the item with a conditional write before acting, so a
 * duplicate message, or two consumers at once, act once; the claim is a
 * lease, so a consumer that dies leaves the item to be sent again. Nothing
 * lives only in a queue: a lost message is re-sent when its lease ends.
 */

/** One piece of due work as a handler sees it. */
export interface DueWork {
  job: string;
  key: string;
  dueAt: number;
  payload: Record<string, unknown>;
  /** 1 for the first delivery of this message. */
  receiveCount: number;
  /**
   * Milliseconds left before the function's time limit (the Lambda context's
   * remaining time) or the end of the run's claim, whichever is sooner. Work done in bounded
   * runs stops well before it and asks for the next run (`{ next }`).
   */
  remainingMs: () => number;
  /**
   * Ends shortly before the run's deadline (its function's remaining time,
   * less a margin): whatever the run waits on (a source, a platform call)
   * should stop then, so the run can still record its own outcome before
   * the scheduler gives it up.
   */
  signal: AbortSignal;
}

/** What the consumer reads of the Lambda context: the time left. */
export interface RunContext {
  getRemainingTimeInMillis(): number;
}

/**
 * What a handler may answer: nothing (done), run this item again at `next`
 * (epoch ms), or done with `spacingMs`: when work was requested while it
 * ran, the next run starts that long after this one ends (instead of the
 * job's `minSpacingMs`; a handler that knows how busy its work is widens
 * its own window).
 */
export type HandlerResult = void | { next: number } | { spacingMs: number };

export type DueHandler = (work: DueWork) => Promise<HandlerResult>;

export interface ConsumerOptions {
  /**
   * When new work was requested while a run was in progress, the next run
   * starts this long after the current one ends (coalesced refreshes stay
   * apart, so a burst cannot exceed a rate limit). Default 0.
   */
  minSpacingMs?: number;
}

/** One producer run: `shard` limits it to that shard of a job that spreads (`producerInputs`); without it, the run reads all of the job's shards. */
export interface ProduceOptions {
  recover?: boolean;
  shard?: number;
}

/** What the producer did in one run. */
export interface ProduceResult {
  dispatched: number;
  parked: number;
}

export interface SchedulerDeps {
  now: () => number;
  sender: () => JobMessageSender;
  timings: () => SchedulerTimings;
  /** How long a consumer waits for an item that is due within a moment. */
  sleep: (ms: number) => Promise<unknown>;
}

/**
 * A run may start this long before its due time (the consumer's early
 * tolerance, 250 ms, and clock differences between functions): work saved
 * before then is in that run. Jobs asked for with `requestSoon` space their
 * reruns by more than this.
 */
const EARLY_START_MARGIN_MS = 750;

/**
 * Whether a run of the item will surely start more than `marginMs` after
 * `now`, and so see whatever is saved now: the item waits for a due time
 * beyond the margin, or a follow-up run was asked for, or a run holds it
 * under a live claim and work was requested after that run began (it runs
 * again when it ends, at least the job's `minSpacingMs` later, which must not
 * be below the margin). `item` comes from a consistent read; null means
 * nothing is scheduled.
 */
export function runWillFollow(
  item: Pick<DueItem, 'phase' | 'due_at' | 'gen' | 'claim_gen' | 'claim_until' | 'follow'> | null,
  marginMs = EARLY_START_MARGIN_MS,
  now = Date.now(),
): boolean {
  if (!item) return false;
  if (item.phase === 'pending' || item.phase === 'dispatched') return item.follow === true || item.due_at > now + marginMs;
  return (
    item.phase === 'claimed' && item.claim_gen !== undefined && (item.gen > item.claim_gen || item.follow === true) && (item.claim_until ?? 0) > now + marginMs
  );
}

/** The message on the queue: which item, and when it was due when sent. */
interface JobMessage {
  job: string;
  key: string;
  due_at: number;
}

/**
 * A run is given up this long before its function's time limit, or a tenth
 * of the time it has when that is less, so the scheduler can still release
 * its claim; its `signal` ends as long again before that, so the run can
 * record its own outcome first.
 */
const RUN_STOP_MARGIN_MS = 2_000;

/** When, from now, a run with `remainingMs` left is signalled to stop and is given up (ms). */
export function runDeadline(remainingMs: number): { signalAt: number; stopAt: number } {
  const margin = Math.min(RUN_STOP_MARGIN_MS, remainingMs / 10);
  const stopAt = Math.max(0, remainingMs - margin);
  return { signalAt: Math.max(0, stopAt - margin), stopAt };
}

/** A run that did not end before its deadline: it is given up, its claim released so the work runs again. */
export class RunDeadlineError extends Error {
  constructor(ms: number) {
    super(`the run did not end within its deadline (${Math.round(ms)} ms)`);
    this.name = 'RunDeadlineError';
  }
}

/**
 * The handler's answer, or RunDeadlineError once the context's time (less
 * the margin) has passed; `controller` is aborted a margin before that. The
 * handler's promise is left behind, its waits ended by the signal.
 */
async function withinDeadline<T>(run: (signal: AbortSignal) => Promise<T>, controller: AbortController, context: RunContext | undefined): Promise<T> {
  if (!context) return run(controller.signal);
  const { signalAt, stopAt } = runDeadline(context.getRemainingTimeInMillis());
  const timers: NodeJS.Timeout[] = [];
  try {
    return await new Promise<T>((resolve, reject) => {
      timers.push(setTimeout(() => controller.abort(new DOMException('The run reached its deadline.', 'TimeoutError')), signalAt));
      timers.push(setTimeout(() => reject(new RunDeadlineError(stopAt)), stopAt));
      run(controller.signal).then(resolve, reject);
    });
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}

/** A message arriving this early still counts as on time (SQS delays are whole seconds, clocks differ a little). */
const EARLY_TOLERANCE_MS = 250;
/** An item due within this much later is waited for rather than sent again. */
const WAIT_FOR_DUE_MS = 2000;
/** Items one producer run handles per job and shard; the rest wait for the next run. */
const MAX_PER_RUN = 1000;
/**
 * A producer reads its job's own shards every run, and every shard a job's
 * items may be in (`SPREAD`) in the first minute of every this many: a
 * build with another layout, or a writer of the previous version during a
 * deployment, may have left items there.
 */
const SWEEP_MINUTES = 10;

function parseMessage(body: string): JobMessage | null {
  try {
    const value = JSON.parse(body) as Partial<JobMessage>;
    if (typeof value.job === 'string' && typeof value.key === 'string' && typeof value.due_at === 'number') return value as JobMessage;
  } catch {
    // not JSON: a poison message
  }
  return null;
}

/** How a job's run ended, as its log line and metrics say. */
type Outcome = 'done' | 'again' | 'retry' | 'parked';

/** One log event carrying its metrics (one line in Lambda) per run of a job's handler (`attempt` is the SQS delivery, 1 for the first). */
function reportRun(work: DueWork, outcome: Outcome, startedAt: number, error?: string): void {
  const level = outcome === 'parked' ? 'error' : outcome === 'retry' ? 'warn' : 'info';
  log(
    level,
    'job',
    {
      job: work.job,
      key: work.key,
      guild_id: guildOf(work.key, work.payload),
      outcome,
      attempt: work.receiveCount,
      duration_ms: Math.round(performance.now() - startedAt),
      ...(error ? { error } : {}),
    },
    { jobsRun: 1, ...(outcome === 'retry' ? { jobsRetried: 1 } : outcome === 'parked' ? { jobsParked: 1 } : {}) },
    { Job: work.job },
  );
}

export interface Scheduler {
  /** Work at `dueAt` (epoch ms); replaces the item's due time when it already exists. */
  scheduleAt(job: string, key: string, dueAt: number, payload?: Record<string, unknown>): Promise<void>;
  /**
   * Work `delayMs` from now, coalesced: while an item is waiting, further
   * requests only mark that new work arrived, and the consumer runs once more
   * after its current run if they came in while it was running. `seen` is the
   * item as the caller read it before saving its work: when it was waiting
   * for a run that may start before that work is saved, one follow-up run is
   * asked for, and later callers see it (`runWillFollow`) and need not ask.
   */
  requestSoon(job: string, key: string, delayMs: number, payload?: Record<string, unknown>, seen?: DueItem | null): Promise<void>;
  /** The job's producer: sends what falls due within the horizon. `recover` re-sends leased items at once (local mode's start). */
  produce(job: string, options?: ProduceOptions): Promise<ProduceResult>;
  /** The job's SQS consumer (reports partial batch failures); the Lambda context gives handlers the time left. */
  consumer(job: string, handle: DueHandler, options?: ConsumerOptions): (event: SQSEvent, context?: RunContext) => Promise<SQSBatchResponse>;
}

/** A scheduler over the table, with the clock, sender and timings injectable (tests). */
export function createScheduler(overrides: Partial<SchedulerDeps> = {}): Scheduler {
  const deps: SchedulerDeps = { now: Date.now, sender: jobSender, timings: timingsFromEnv, sleep: (ms) => sleep(ms), ...overrides };

  /** Until when a message sent now for work due at `dueAt` holds the item: the producer sends it again only after. */
  const leaseOf = (dueAt: number, now: number) => Math.max(dueAt, now) + deps.timings().leaseMs;

  /** The lease of work due at `dueAt` if it is to be sent right away (due before the producer's next look, and this process can send it). */
  function leaseIfNear(job: string, dueAt: number): number | undefined {
    const now = deps.now();
    if (dueAt > now + deps.timings().horizonMs || !deps.sender().canSend(job)) return undefined;
    return leaseOf(dueAt, now);
  }

  /** Sends the message of an item this process marked as dispatched; answers whether it went. */
  async function send(item: DueItem): Promise<boolean> {
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((item.due_at - deps.now()) / 1000)));
    const body: JobMessage = { job: item.job, key: item.work_key, due_at: item.due_at };
    try {
      await deps.sender().send(item.job, JSON.stringify(body), delaySeconds);
    } catch (error) {
      // The item stays leased; the producer sends it again when the lease ends.
      log('warn', 'scheduler: send failed', { job: item.job, key: item.work_key, error: errorField(error) });
      return false;
    }
    return true;
  }

  /** Sends the item if it sits in the index where we saw it; answers whether this call sent it. */
  async function dispatch(item: DueItem, seenIndexTime: string | undefined): Promise<boolean> {
    if (seenIndexTime === undefined || !deps.sender().canSend(item.job)) return false;
    const now = deps.now();
    const marked = await store.markDispatched(item.job, item.work_key, seenIndexTime, leaseOf(item.due_at, now), now);
    return marked !== null && send(marked);
  }

  /** Work due before the producer's next look is sent now. */
  async function dispatchIfNear(item: DueItem): Promise<void> {
    if (item.phase !== 'pending' || item.due_at > deps.now() + deps.timings().horizonMs) return;
    await dispatch(item, item.gsi1sk);
  }

  /**
   * Gives a claimed item back for another run at `dueAt` (only if not due
   * later than that, given `notMovedLater`); work due soon is written as
   * dispatched and sent (one write, not two). Answers whether it was released.
   */
  async function release(job: string, key: string, claimId: string, dueAt: number, now: number, notMovedLater = false): Promise<boolean> {
    const lease = leaseIfNear(job, dueAt);
    const released = await store.releaseDue(job, key, claimId, dueAt, now, lease, notMovedLater);
    if (released && lease !== undefined) await send(released);
    return released !== null;
  }

  async function scheduleAt(job: string, key: string, dueAt: number, payload: Record<string, unknown> = {}): Promise<void> {
    const lease = leaseIfNear(job, dueAt);
    const item = await store.putDue(job, key, dueAt, payload, deps.now(), lease);
    if (lease !== undefined) await send(item);
  }

  /**
   * The item as this process's last request for it left it, and when: for
   * EARLY_START_MARGIN_MS after, it speaks for the table. A run it promises
   * (due beyond the margin, a follow-up, a rerun after the running claim)
   * starts after any work saved meanwhile, as the runs it promises start at
   * least the job's spacing, more than the margin, after that request.
   */
  const lastAsked = new Map<string, { item: DueItem; at: number; payload: string }>();

  function remember(id: string, item: DueItem | null, at: number, payload: string): void {
    if (lastAsked.size >= 1000) lastAsked.clear();
    if (item) lastAsked.set(id, { item, at, payload });
  }

  async function ask(id: string, job: string, key: string, delayMs: number, payload: Record<string, unknown>, seen: DueItem | null | undefined): Promise<void> {
    const now = deps.now();
    const known = lastAsked.get(id);
    const text = JSON.stringify(payload);
    // Only a request with the same payload: another one is written, as the payload it brings is the run's.
    if (known && known.payload === text && now - known.at < EARLY_START_MARGIN_MS && runWillFollow(known.item, EARLY_START_MARGIN_MS, now)) return;
    const waiting = seen?.phase === 'pending' || seen?.phase === 'dispatched';
    const followed = waiting ? await store.requestFollowUp(job, key, now) : null;
    remember(id, followed, now, text);
    if (followed) return;
    const lease = leaseIfNear(job, now + delayMs);
    const item = await requestItem(job, key, now + delayMs, payload, now, lease);
    remember(id, item, now, text);
    if (!item) return;
    // Only the request that made the item sends it (made as dispatched when due soon); later ones ride along.
    if (item.gen === 1 && lease !== undefined) await send(item);
    else if (item.gen === 1 || item.dispatches === 0) await dispatchIfNear(item);
  }

  /**
   * Requests of this process still on their way, by job and key. A caller
   * asking while one is on its way shares it: the run that write leads to
   * starts at least the job's delay (or spacing) after the write was sent,
   * so after the caller's work, saved before it asked.
   */
  const asking = new Map<string, Promise<void>>();

  function requestSoon(job: string, key: string, delayMs: number, payload: Record<string, unknown> = {}, seen?: DueItem | null): Promise<void> {
    const id = `${job}\n${key}`;
    const shared = asking.get(id);
    if (shared) return shared;
    const request = ask(id, job, key, delayMs, payload, seen).finally(() => asking.delete(id));
    asking.set(id, request);
    return request;
  }

  async function produce(job: string, options: ProduceOptions = {}): Promise<ProduceResult> {
    const timings = deps.timings();
    const now = deps.now();
    const result: ProduceResult = { dispatched: 0, parked: 0 };
    const own = shardsOf(job);
    const sweep = options.recover || Math.floor(now / 60_000) % SWEEP_MINUTES === 0;
    const reach = now + timings.horizonMs;
    // A stray item (outside the job's shards) due before the next sweep is sent now, as far ahead as SQS delays.
    const strayReach = Math.min(reach + SWEEP_MINUTES * 60_000, now + MAX_DELAY_SECONDS * 1000);
    const one = options.shard !== undefined && options.shard < own ? options.shard : undefined;
    const shards = one !== undefined ? [one] : Array.from({ length: sweep ? SPREAD : own }, (_, shard) => shard);
    await Promise.all(
      shards.map(async (shard) => {
        const stray = shard >= own;
        const items = await store.queryDue(job, shard, stray ? Number.MAX_SAFE_INTEGER : reach, MAX_PER_RUN);
        for (const item of items) {
          // Pending: due within reach. Leased: only once its lease has ended.
          const due = item.phase === 'pending' ? item.due_at <= (stray ? strayReach : reach) : options.recover || Number(item.gsi1sk) <= now;
          if (!due) {
            // A stray goes to its own partition, where every run looks.
            if (stray) await store.moveDue(job, item.work_key, item.gsi1sk!);
            continue;
          }
          if (item.dispatches >= timings.maxDispatches) {
            if (await store.parkDue(job, item.work_key, null, `sent ${item.dispatches} times without completing`, now)) {
              result.parked++;
              log(
                'error',
                'job parked',
                { job, key: item.work_key, guild_id: guildOf(item.work_key, item.payload), dispatches: item.dispatches },
                { jobsParked: 1 },
                { Job: job },
              );
            }
            continue;
          }
          if (await dispatch(item, item.gsi1sk)) result.dispatched++;
        }
      }),
    );
    return result;
  }

  async function handleRecord(job: string, record: SQSRecord, handle: DueHandler, options: ConsumerOptions, context?: RunContext): Promise<boolean> {
    const message = parseMessage(record.body);
    if (!message || message.job !== job) {
      log('error', 'scheduler: message is not due work of this job', { job, messageId: record.messageId });
      return false;
    }
    const receiveCount = Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
    const timings = deps.timings();
    const claimId = randomUUID();
    let now = deps.now();
    let claimed = await store.claimDue(job, message.key, claimId, now + timings.leaseMs, now, EARLY_TOLERANCE_MS);
    if (!claimed) {
      // Done already, held by another consumer, or not yet due (moved later, or a clock ahead).
      const item = await store.getDue(job, message.key);
      const free = item && (item.claim_until === undefined || item.claim_until < deps.now());
      if (!item || !free) return true;
      if (item.due_at - deps.now() <= WAIT_FOR_DUE_MS) {
        // Due within a moment (or due now, freed just after our claim lost a race): take it then.
        if (item.due_at > deps.now()) await deps.sleep(item.due_at - deps.now());
        now = deps.now();
        claimed = await store.claimDue(job, message.key, claimId, now + timings.leaseMs, now, EARLY_TOLERANCE_MS);
        if (!claimed) return true;
      } else {
        await dispatch(item, item.gsi1sk);
        return true;
      }
    }

    // A run ends before its function's time limit and before its claim's lease, whichever comes first: past the lease, the item may be sent again.
    const leaseEnd = now + timings.leaseMs;
    const remainingMs = () => Math.min(context ? context.getRemainingTimeInMillis() : Number.POSITIVE_INFINITY, leaseEnd - deps.now());
    const controller = new AbortController();
    const work: DueWork = {
      job,
      key: message.key,
      dueAt: claimed.due_at,
      payload: claimed.payload ?? {},
      receiveCount,
      remainingMs,
      signal: controller.signal,
    };
    const startedAt = performance.now();
    let result: HandlerResult;
    try {
      // Every run ends by its deadline: one that has not is given up as failed, which releases its claim (below).
      result = await withinDeadline(() => handle(work), controller, context);
    } catch (error) {
      // Whatever the given-up run still waits on stops now.
      controller.abort(error);
      const reason = errorField(error);
      const last = receiveCount >= timings.maxReceiveCount;
      reportRun(work, last ? 'parked' : 'retry', startedAt, reason);
      if (last) await store.parkDue(job, message.key, claimId, reason, deps.now());
      else await store.failDue(job, message.key, claimId, deps.now() + timings.retryMs + timings.leaseMs, reason);
      return false;
    }

    const again = result && 'next' in result ? result.next : undefined;
    reportRun(work, again === undefined ? 'done' : 'again', startedAt);
    const doneAt = deps.now();
    if (again !== undefined) {
      await release(job, message.key, claimId, again, doneAt);
      return true;
    }
    // A follow-up asked for before the claim makes the delete's condition fail: go straight to the rerun.
    if (claimed.follow === true || !(await store.completeDue(job, message.key, claimId, claimed.gen))) {
      // New work was requested while this run went on: run again (spaced), unless the claim was lost.
      // Only when the item was also moved later meanwhile (or the claim lost) is it read, to run at its time.
      const next = doneAt + (result && 'spacingMs' in result ? result.spacingMs : (options.minSpacingMs ?? 0));
      if (!(await release(job, message.key, claimId, next, doneAt, true))) {
        const item = await store.getDue(job, message.key);
        if (item?.claim_id === claimId) await release(job, message.key, claimId, Math.max(item.due_at, next), doneAt);
      }
    }
    reportWorkDone({ job, key: message.key, dueAt: claimed.due_at, doneAt, receiveCount });
    return true;
  }

  function consumer(job: string, handle: DueHandler, options: ConsumerOptions = {}) {
    return async (event: SQSEvent, context?: RunContext): Promise<SQSBatchResponse> => {
      const outcomes = await Promise.all(
        event.Records.map((record) =>
          handleRecord(job, record, handle, options, context).catch((error: unknown) => {
            log('error', 'scheduler: consumer failure', { job, messageId: record.messageId, error: errorField(error) });
            return false;
          }),
        ),
      );
      return { batchItemFailures: event.Records.filter((_, i) => !outcomes[i]).map((record) => ({ itemIdentifier: record.messageId })) };
    };
  }

  return {
    scheduleAt,
    requestSoon,
    produce,
    consumer,
  };
}

/** The scheduler with the deployed configuration (the environment's timings and sender). */
export const scheduler: Scheduler = /* @__PURE__ */ createScheduler();
