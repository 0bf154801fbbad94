/**
 * Announcing an item of a source to every channel watching it (behaviour §7),
 * exactly once per channel: the delivery is claimed with a conditional
 * write on a per-(channel, item) mark before the message is posted, and the
 * post carries a nonce the platform enforces, so a poll, a send, two
 * overlapping polls or a redelivered message make one message. Feed entries
 * and forum posts are also marked by their link (without `utm_*` and
 * fragment), so two feeds carrying the same link post it once. A channel the platform refuses
 * is skipped; the others still get the item.
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
import type { SourceItem } from './feed.js';
import { ANNOUNCE_JOB, type AnnounceUnit, type Target, unitWork } from './fan-out.js';
import { type Kind, normalizeLink } from './kinds.js';
import { announcement } from './render.js';
import { type MarkState, activeWatchersOf, claimMark, itemMark, linkMark, settleMarks } from './store.js';

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

async function deliver(target: Target, kind: Kind, ident: string, item: SourceItem): Promise<keyof Delivery> {
  const channel = target.channel_id;
  const mark = itemMark(kind, ident, item.key);
  if (!(await claimMark(channel, mark, CLAIM_LEASE_MS))) return 'already';
  // Posts and feed entries are marked by their link too: a send and a poll, or two feeds, may name one story by its link.
  const byLink = item.link && (kind === 'rss' || kind === 'forum') ? linkMark(normalizeLink(item.link)) : null;
  if (byLink && !(await claimMark(channel, byLink, CLAIM_LEASE_MS))) {
    await settleMarks(channel, [[mark, 'posted']]);
    return 'already';
  }
  // Both marks are settled in one batch write: a channel's delivery is its claims and this one request.
  const settle = (itemState: MarkState, linkState: MarkState) =>
    settleMarks(
      channel,
      byLink
        ? [
            [mark, itemState],
            [byLink, linkState],
          ]
        : [[mark, itemState]],
    );
  // The nonce is the (channel, item)'s: every try of this delivery, by any poll, unit or send, carries the same one.
  const body: MessageCreate = { ...announcement(kind, item, target.mention_everyone), nonce: nonceFrom(channel, byLink ?? mark) };
  try {
    await announcePace();
    await platform.createMessage(channel, body);
  } catch (error) {
    if (isPlatformError(error) && (error.platformStatus === 403 || error.platformStatus === 404)) {
      await settle('refused', null);
      return 'refused';
    }
    // Offered again by the unit's next run (or the next send); the nonce keeps a post that did land from doubling.
    log('warn', 'announcement not posted for now', { channel_id: channel, error: errorField(error) });
    await settle(null, null);
    return 'failed';
  }
  await settle('posted', 'posted');
  emit({ itemsAnnounced: 1 });
  return 'posted';
}

/** Posts a unit makes at once: its 25 channels in about five rounds, so parallel units stay near the platform's global rate. */
const POSTS_AT_ONCE = 5;

/** Posts the item to the given channels, a few at once, each at most once ever. */
export async function deliverTo(targets: Target[], kind: Kind, ident: string, item: SourceItem): Promise<Delivery> {
  const result: Delivery = { posted: 0, already: 0, refused: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      // One channel's trouble (even a table error) is that channel's: it is offered again, the others go on.
      const outcome = await deliver(target, kind, ident, item).catch((error: unknown) => {
        log('warn', 'announcement failed in the table', { channel_id: target.channel_id, error: errorField(error) });
        return 'failed' as const;
      });
      result[outcome]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(POSTS_AT_ONCE, targets.length) }, worker));
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
