/**
 * Handing out the new items of a poll (behaviour §7, §13): the channels
 * watching a source in parts of {@link CHANNELS_PER_UNIT}, each part a chain
 * of `socials.announce` units, one item each (announce.ts posts them). Apart
 * from announce.ts so a poll carries no platform client.
 */
import { scheduler } from '#shared/scheduler/index.js';
import type { SourceItem } from './feed/parse.js';
import type { Kind } from './kinds.js';
import { activeWatchersOf, identKey, seenKey, type Watcher } from './store.js';
import { ANNOUNCE_JOB } from './jobs.js';

export { ANNOUNCE_JOB };

/** Channels one unit of an announcement posts to (five at a time): at most 25 posts and 100 table writes, well inside the consumer's 30 s. */
export const CHANNELS_PER_UNIT = 25;

/** Where an item goes: a channel, and whether its entry mentions everyone. */
export type Target = Pick<Watcher, 'channel_id' | 'mention_everyone'>;

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
 * A unit as due work: its key names the source, the poll's items, the part
 * of the channels and the item, so asking twice makes one unit while it
 * waits.
 */
export const unitWork = (unit: AnnounceUnit, batch: string, part: number) => ({
  key: unitKey(unit, batch, part),
  payload: { ...unit, batch, part } as unknown as Record<string, unknown>,
});

/**
 * Hands the new items of a poll (oldest first) to units of work: the
 * channels watching the source in parts of {@link CHANNELS_PER_UNIT}, each
 * part a chain of units, one item each, the next asked for when one is done,
 * so every channel gets the items oldest first and the parts run in
 * parallel, started at the pace the platform takes their posts. Answers how
 * many chains there are. A poll that has read the source's watchers passes
 * them, so they are read once.
 */
export async function fanOut(kind: Kind, ident: string, items: SourceItem[], watchers?: Watcher[]): Promise<number> {
  if (items.length === 0) return 0;
  const targets: Target[] = (await activeWatchersOf(kind, ident, watchers)).map((w) => ({ channel_id: w.channel_id, mention_everyone: w.mention_everyone }));
  const handed = items.slice(-MAX_ITEMS_PER_POLL).map(shown);
  const batch = seenKey(handed.map((i) => i.key).join('\u0000'));
  const parts: Target[][] = [];
  for (let i = 0; i < targets.length; i += CHANNELS_PER_UNIT) parts.push(targets.slice(i, i + CHANNELS_PER_UNIT));
  // Part n starts n / STARTS_PER_SECOND seconds from now: 10,000 channels are 400 parts over about 220 s, the time their posts take anyway.
  await Promise.all(
    parts.map((part, index) => {
      const { key, payload } = unitWork({ kind, ident, items: handed, index: 0, targets: part }, batch, index);
      return scheduler.requestSoon(ANNOUNCE_JOB, key, Math.floor((index * 1000) / STARTS_PER_SECOND), payload);
    }),
  );
  return parts.length;
}
