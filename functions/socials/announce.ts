/**
 * Announcing an item of a source to every channel watching it (contract 7),
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
import { createHash } from 'node:crypto';
import type { RESTPostAPIChannelMessageJSONBody } from 'discord-api-types/v10';
import { getKeys } from '../../shared/db/batch.js';
import { type ModuleStateItem, moduleStateKey } from '../../shared/modules/store.js';
import { isPlatformError, platform } from '../../shared/platform/client.js';
import { pacer } from '../../shared/platform/pacer.js';
import type { MessageCreate } from '../../shared/platform/types.js';
import { scheduler } from '../../shared/scheduler/index.js';
import type { SourceItem } from './feed.js';
import { KINDS, type Kind, normalizeLink } from './kinds.js';
import { announcement } from './render.js';
import { claimMark, identKey, itemMark, linkMark, releaseMark, seenKey, settleMark, type Watcher, watchersOf } from './store.js';

export const ANNOUNCE_JOB = 'socials.announce';
/** Channels one unit of an announcement posts to, one after another: at most 25 posts and 75 table writes, well inside 30 s. */
export const CHANNELS_PER_UNIT = 25;

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

/** Where an item goes: a channel, and whether its entry mentions everyone. */
type Target = Pick<Watcher, 'channel_id' | 'mention_everyone'>;

/** The platform's idempotency key of one (channel, item): at most 25 characters. */
const nonceOf = (channelId: string, mark: string) => createHash('sha256').update(`${channelId}\u0000${mark}`).digest('base64url').slice(0, 25);

/** The watchers whose guild has the module and this kind's component on. */
async function activeWatchers(kind: Kind, ident: string): Promise<Watcher[]> {
  const watchers = await watchersOf(kind, ident);
  const guilds = [...new Set(watchers.map((w) => w.guild_id))];
  const states = await getKeys(guilds.map((g) => moduleStateKey(g, 'socials')));
  const on = new Set(
    states
      .filter((s) => (s as unknown as ModuleStateItem).enabled && (s as unknown as ModuleStateItem).settings?.[KINDS[kind].toggle] === true)
      .map((s) => String(s.pk).slice('G#'.length)),
  );
  return watchers.filter((w) => on.has(w.guild_id));
}

async function deliver(target: Target, kind: Kind, ident: string, item: SourceItem): Promise<keyof Delivery> {
  const channel = target.channel_id;
  const mark = itemMark(kind, ident, item.key);
  if (!(await claimMark(channel, mark, CLAIM_LEASE_MS))) return 'already';
  // Posts and feed entries are marked by their link too: a send and a poll, or two feeds, may name one story by its link.
  const byLink = item.link && (kind === 'rss' || kind === 'forum') ? linkMark(normalizeLink(item.link)) : null;
  if (byLink && !(await claimMark(channel, byLink, CLAIM_LEASE_MS))) {
    await settleMark(channel, mark, 'posted');
    return 'already';
  }
  const body: RESTPostAPIChannelMessageJSONBody = { ...announcement(kind, item, target.mention_everyone), nonce: nonceOf(channel, byLink ?? mark), enforce_nonce: true };
  try {
    await announcePace();
    await platform.createMessage(channel, body as MessageCreate);
  } catch (error) {
    if (isPlatformError(error) && (error.platformStatus === 403 || error.platformStatus === 404)) {
      await settleMark(channel, mark, 'refused');
      if (byLink) await releaseMark(channel, byLink);
      return 'refused';
    }
    // Offered again by the unit's next run (or the next send); the nonce keeps a post that did land from doubling.
    console.warn(JSON.stringify({ level: 'warn', msg: 'announcement not posted for now', channel, error: error instanceof Error ? error.message : String(error) }));
    await releaseMark(channel, mark);
    if (byLink) await releaseMark(channel, byLink);
    return 'failed';
  }
  await settleMark(channel, mark, 'posted');
  if (byLink) await settleMark(channel, byLink, 'posted');
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
        console.warn(JSON.stringify({ level: 'warn', msg: 'announcement failed in the table', channel: target.channel_id, error: error instanceof Error ? error.message : String(error) }));
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
  return deliverTo(await activeWatchers(kind, ident), kind, ident, item);
}

/** What a unit of an announcement carries: the new items of a poll (oldest first), which of them it posts, and the channels it posts to. */
export interface AnnounceUnit {
  kind: Kind;
  ident: string;
  items: SourceItem[];
  index: number;
  targets: Target[];
}

/** Items one poll hands out at most (the newest); a feed that adds more at once has the older ones recorded as seen, not posted. */
export const MAX_ITEMS_PER_POLL = 50;
/** What a message can show of an item's text (render.ts cuts the message to 2000), so a unit's payload stays small. */
const ITEM_TEXT_MAX = 2000;
const shown = (item: SourceItem): SourceItem => ({
  ...item,
  title: item.title.slice(0, ITEM_TEXT_MAX),
  description: item.description?.slice(0, ITEM_TEXT_MAX) ?? null,
  link: item.link?.slice(0, ITEM_TEXT_MAX) ?? null,
});

const unitKey = (unit: AnnounceUnit, batch: string, part: number) => `${unit.kind}:${identKey(unit.kind, unit.ident)}:${batch}:${part}:${unit.index}`;

/**
 * The platform's global rate, less a margin: the pace at which parts of an
 * announcement are started, so units reach the queue about as fast as the
 * platform takes their posts and none waits there past its lease.
 */
const STARTS_PER_SECOND = 45 / CHANNELS_PER_UNIT;

/**
 * Asks for a unit `delayMs` from now; its key names the source, the poll's
 * items, the part of the channels and the item, so asking twice makes one
 * unit while it waits.
 */
const request = (unit: AnnounceUnit, batch: string, part: number, delayMs = 0) =>
  scheduler.requestSoon(ANNOUNCE_JOB, unitKey(unit, batch, part), delayMs, { ...unit, batch, part } as unknown as Record<string, unknown>);

/**
 * Hands the new items of a poll (oldest first) to units of work: the
 * channels watching the source in parts of {@link CHANNELS_PER_UNIT}, each
 * part a chain of units, one item each, the next asked for when one is done,
 * so every channel gets the items oldest first and the parts run in
 * parallel, started at the pace the platform takes their posts. Answers how
 * many chains there are.
 */
export async function fanOut(kind: Kind, ident: string, items: SourceItem[]): Promise<number> {
  if (items.length === 0) return 0;
  const targets: Target[] = (await activeWatchers(kind, ident)).map((w) => ({ channel_id: w.channel_id, mention_everyone: w.mention_everyone }));
  const handed = items.slice(-MAX_ITEMS_PER_POLL).map(shown);
  const batch = seenKey(handed.map((i) => i.key).join('\u0000'));
  const parts: Target[][] = [];
  for (let i = 0; i < targets.length; i += CHANNELS_PER_UNIT) parts.push(targets.slice(i, i + CHANNELS_PER_UNIT));
  // Part n starts n / STARTS_PER_SECOND seconds from now: 10,000 channels are 400 parts over about 220 s, the time their posts take anyway.
  await Promise.all(parts.map((part, index) => request({ kind, ident, items: handed, index: 0, targets: part }, batch, index, Math.floor((index * 1000) / STARTS_PER_SECOND))));
  return parts.length;
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
  if (unit.index + 1 < unit.items.length) await request({ ...unit, index: unit.index + 1 }, batch, part);
  if (result.failed > 0) throw new Error(`${result.failed} of ${unit.targets.length} channels could not take the item for now`);
}
