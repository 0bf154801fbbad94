/**
 * Announcing an item of a source to every channel watching it (contract 7),
 * exactly once per channel: the delivery is claimed with a conditional
 * write on a per-(channel, item) mark before the message is posted, and the
 * post carries a nonce the platform enforces, so a poll, a send, two
 * overlapping polls or a redelivered message make one message. Feed entries
 * and forum posts are also marked by their link (without `utm_*` and
 * fragment), so two feeds carrying the same link post it once. A channel the platform refuses
 * is skipped; the others still get the item.
 */
import { getKeys } from '#shared/db/batch.js';
import { type ModuleStateItem, moduleStateKey } from '#shared/modules/store.js';
import { isPlatformError, nonceFrom, platform } from '#shared/platform/client.js';
import type { MessageCreate } from '#shared/platform/types.js';
import type { SourceItem } from './feed.js';
import { KINDS, type Kind, normalizeLink } from './kinds.js';
import { announcement } from './render.js';
import { claimMark, releaseMark, settleMark, type Watcher, watchersOf } from './store.js';

/** How long a claimed delivery may take before another may take it over (the nonce keeps that safe). */
const CLAIM_LEASE_MS = 60_000;

export interface Delivery {
  /** Channels that got the item now. */
  posted: number;
  /** Channels that had it already. */
  already: number;
  /** Channels the platform refused (skipped for good). */
  refused: number;
  /** Channels that failed for now (the item is offered again later). */
  failed: number;
}

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

async function deliver(watcher: Watcher, kind: Kind, ident: string, item: SourceItem): Promise<keyof Delivery> {
  const channel = watcher.channel_id;
  const mark = `${kind}#${ident}#${item.key}`;
  if (!(await claimMark(channel, mark, CLAIM_LEASE_MS))) return 'already';
  // Posts and feed entries are marked by their link too: a send and a poll, or two feeds, may name one story by its link.
  const linkMark = item.link && (kind === 'rss' || kind === 'forum') ? `LINK#${normalizeLink(item.link)}` : null;
  if (linkMark && !(await claimMark(channel, linkMark, CLAIM_LEASE_MS))) {
    await settleMark(channel, mark, 'posted');
    return 'already';
  }
  // The nonce is the (channel, item)'s: every try of this delivery, by any poll or send, carries the same one.
  const body: MessageCreate = { ...announcement(kind, item, watcher.mention_everyone), nonce: nonceFrom(channel, linkMark ?? mark) };
  try {
    await platform.createMessage(channel, body);
  } catch (error) {
    if (isPlatformError(error) && (error.platformStatus === 403 || error.platformStatus === 404)) {
      await settleMark(channel, mark, 'refused');
      if (linkMark) await releaseMark(channel, linkMark);
      return 'refused';
    }
    // Offered again by the next poll or send; the nonce keeps a post that did land from doubling.
    await releaseMark(channel, mark);
    if (linkMark) await releaseMark(channel, linkMark);
    return 'failed';
  }
  await settleMark(channel, mark, 'posted');
  if (linkMark) await settleMark(channel, linkMark, 'posted');
  return 'posted';
}

/** Posts the item to every active watcher of the source, each at most once ever. */
export async function announce(kind: Kind, ident: string, item: SourceItem): Promise<Delivery> {
  const result: Delivery = { posted: 0, already: 0, refused: 0, failed: 0 };
  for (const watcher of await activeWatchers(kind, ident)) result[await deliver(watcher, kind, ident, item)]++;
  return result;
}
