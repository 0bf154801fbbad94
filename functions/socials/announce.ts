/**
 * Announcing an item of a source to every channel watching it (behaviour §7),
 * exactly once per channel: the delivery is claimed with one conditional
 * request on a per-(channel, item) mark before the message is posted, and
 * the post carries a nonce the platform enforces, so a poll, a send, two
 * overlapping polls or a redelivered message make one message. Feed entries
 * and forum posts are also marked by their link (without `utm_*` and
 * fragment), claimed with the item's mark in the same request, so two feeds
 * carrying the same link post it once. A channel the platform refuses is
 * skipped; the others still get the item. The outcomes (posted, refused, or
 * released for another try) are recorded 25 marks a batch write, so a
 * channel costs the table its claim and a share of a batch (docs/performance.md).
 *
 * A poll does not post itself: it hands its new items to units of work
 * (`socials.announce` jobs) of one item and up to {@link CHANNELS_PER_UNIT}
 * channels, which run in parallel, each well inside the consumer's time
 * limit, and each safe to run again (the marks). A unit with a channel that
 * failed for now runs again later (those that got the item answer
 * `already`); one channel, or one item, holds back no other.
 */
import { emit } from '#shared/observe/emit.js';
import { errorField, log } from '#shared/observe/log.js';
import { isPlatformError, nonceFrom, platform } from '#shared/platform/client.js';
import { pacer } from '#shared/platform/pacer.js';
import type { MessageCreate } from '#shared/platform/types.js';
import { scheduler } from '#shared/scheduler/index.js';
import type { SourceItem } from './feed/parse.js';
import { ANNOUNCE_JOB, type AnnounceUnit, type Target, unitWork } from './fan-out.js';
import { type Kind, normalizeLink } from './kinds.js';
import { announcement } from './render.js';
import { type MarkState, type Settled, activeWatchersOf, claimDelivery, itemMark, linkMark, settleMarks } from './store.js';

/**
 * Announcement posts a second from one process (`SOCIALS_ANNOUNCE_RATE`,
 * default 25): with the announce consumer at most 2 at once (infra/jobs.ts),
 * announcements keep within the platform's global 50 a second. Local mode,
 * one process, sets 45.
 */
const announcePace = pacer(() => Number(process.env.SOCIALS_ANNOUNCE_RATE || 25));

/** How long a claimed delivery may take before another may take it over (the nonce keeps that safe). */
const CLAIM_LEASE_MS = 60_000;

export interface Delivery {
  /** Channels that got the item now. */
  posted: number;
  /** Channels that had it already. */
  already: number;
  /** Channels the platform refused (skipped for good). */
  refused: number;
  /** Channels that failed for now (offered again). */
  failed: number;
}

/** A channel's delivery: its outcome, and the marks it claimed with the state each is settled in. */
interface Outcome {
  outcome: keyof Delivery;
  settled: Settled[];
}

async function deliver(target: Target, kind: Kind, ident: string, item: SourceItem): Promise<Outcome> {
  const channel = target.channel_id;
  const mark = itemMark(kind, ident, item.key);
  // Posts and feed entries are marked by their link too: a send and a poll, or two feeds, may name one story by its link.
  const byLink = item.link && (kind === 'rss' || kind === 'forum') ? linkMark(normalizeLink(item.link)) : null;
  const marks = byLink ? [mark, byLink] : [mark];
  // The claim: one conditional request taking the item's mark and its link's together, before anything is posted.
  if (!(await claimDelivery(channel, marks, CLAIM_LEASE_MS))) return { outcome: 'already', settled: [] };
  const ended = (outcome: keyof Delivery, itemState: MarkState, linkState: MarkState): Outcome => ({
    outcome,
    settled: marks.map((m) => ({ channelId: channel, mark: m, state: m === mark ? itemState : linkState })),
  });
  // The nonce is the (channel, item)'s: every try of this delivery, by any poll, unit or send, carries the same one.
  const body: MessageCreate = { ...announcement(kind, item, target.mention_everyone), nonce: nonceFrom(channel, byLink ?? mark) };
  try {
    await announcePace();
    await platform.createMessage(channel, body);
  } catch (error) {
    if (isPlatformError(error) && (error.platformStatus === 403 || error.platformStatus === 404)) return ended('refused', 'refused', null);
    // Offered again by the unit's next run (or the next send); the nonce keeps a post that did land from doubling.
    log('warn', 'announcement not posted for now', { channel_id: channel, error: errorField(error) });
    return ended('failed', null, null);
  }
  emit({ itemsAnnounced: 1 });
  return ended('posted', 'posted', 'posted');
}

/** Marks settled a request: one batch write. */
export const SETTLE_BATCH = 25;

/**
 * The outcomes of a run's deliveries, recorded together: a batch write as
 * soon as 25 marks wait (a unit of 25 channels makes two such writes when
 * its item is marked by link too, else one), the rest when the run's posts
 * are done, well inside the claims' lease. A batch the table refuses leaves its marks
 * claimed: their channels count as failed for now, so the unit runs again
 * after the lease and takes them over, posting with the same nonce.
 */
function outcomes(result: Delivery) {
  let waiting: { of: Outcome; mark: Settled }[] = [];
  const lost = new Set<Outcome>();
  const writes: Promise<void>[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    writes.push(
      settleMarks(batch.map((w) => w.mark)).catch((error: unknown) => {
        log('warn', 'announcement outcomes not recorded', { marks: batch.length, error: errorField(error) });
        for (const { of } of batch) {
          if (lost.has(of)) continue;
          lost.add(of);
          result[of.outcome]--;
          result.failed++;
        }
      }),
    );
  };
  return {
    add(of: Outcome) {
      result[of.outcome]++;
      for (const mark of of.settled) {
        waiting.push({ of, mark });
        if (waiting.length === SETTLE_BATCH) flush();
      }
    },
    async done() {
      flush();
      await Promise.all(writes);
    },
  };
}

/** Posts a unit makes at once: its 25 channels in about five rounds, so parallel units stay near the platform's global rate. */
const POSTS_AT_ONCE = 5;

/** Posts the item to the given channels, a few at once, each at most once ever. */
export async function deliverTo(targets: Target[], kind: Kind, ident: string, item: SourceItem): Promise<Delivery> {
  const result: Delivery = { posted: 0, already: 0, refused: 0, failed: 0 };
  const recorded = outcomes(result);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      // One channel's trouble (even a table error) is that channel's: it is offered again, the others go on.
      const outcome = await deliver(target, kind, ident, item).catch((error: unknown): Outcome => {
        log('warn', 'announcement failed in the table', { channel_id: target.channel_id, error: errorField(error) });
        return { outcome: 'failed', settled: [] };
      });
      recorded.add(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(POSTS_AT_ONCE, targets.length) }, worker));
  await recorded.done();
  return result;
}

/** Posts the item to every active watcher of the source now (a send), each at most once ever. */
export async function announce(kind: Kind, ident: string, item: SourceItem): Promise<Delivery> {
  return deliverTo(await activeWatchersOf(kind, ident), kind, ident, item);
}

/**
 * One unit (the job's handler): posts its item to its channels, then asks
 * for the chain's next item. When a channel failed for now, the unit fails,
 * so the queue delivers it again later (at most 5 deliveries, then it is
 * parked); the channels that got the item then answer `already`.
 */
export async function runAnnounceUnit(payload: AnnounceUnit & { batch: string; part: number }): Promise<void> {
  const { batch, part, ...unit } = payload;
  const result = await deliverTo(unit.targets, unit.kind, unit.ident, unit.items[unit.index]!);
  if (unit.index + 1 < unit.items.length) {
    const { key, payload: next } = unitWork({ ...unit, index: unit.index + 1 }, batch, part);
    await scheduler.requestSoon(ANNOUNCE_JOB, key, 0, next);
  }
  if (result.failed > 0) throw new Error(`${result.failed} of ${unit.targets.length} channels could not take the item for now`);
}
