/**
 * Starboard entries in the table. In the guild's partition:
 *
 * | item  | sk                               | holds                                        |
 * |-------|----------------------------------|----------------------------------------------|
 * | entry | `STARBOARD#<original_message_id>` | the record, the author, a claim token         |
 * | post  | `STARPOST#<starboard_message_id>` | the original message ID (a deleted post)      |
 *
 * The entry is claimed with a condition before the post is made, so two
 * checks at once make one post. An entry lives 31 days from
 * `monitoring_start` (`expires_at`); an older one counts as absent and is
 * claimed over. gsi1 (`STARAUTH#<guild>#<author>`) lists the entries of a
 * member's messages, for privacy only.
 */
import { type Item, entity, partition } from '#shared/db/entity.js';
import { guildKey } from '#shared/modules/store.js';

export const ENTRY_LIFETIME_MS = 31 * 24 * 3600 * 1000;

export interface StarboardEntry {
  id: number;
  guild_id: string;
  original_message_id: string;
  original_channel_id: string;
  /** Empty while the post is being made. */
  starboard_message_id: string;
  star_count: number;
  monitoring_start: string;
  _author_id: string;
  _claim: string;
  _claimed_at: number;
}

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);
const authorPartition = partition<[guildId: string, authorId: string]>('STARAUTH#');

/** The entry of an original message; gsi1 lists an author's entries. */
export const StarboardEntity = entity({
  name: 'starboard_entry',
  prefix: 'STARBOARD#',
  pk: inGuild,
  sk: (f: { guildId: string; messageId: string }) => [f.messageId],
  parse: (item: Item): StarboardEntry => {
    const { pk: _pk, sk: _sk, entity: _e, gsi1pk: _g, gsi1sk: _s, expires_at: _x, ...rest } = item;
    return rest as StarboardEntry;
  },
  indexes: { gsi1: { pk: (f: { guildId: string; authorId: string }) => authorPartition(f.guildId, f.authorId), prefix: '' } },
});
/** A starboard post -> its `original_message_id` (a deleted post). */
const PostEntity = entity({
  name: 'starboard_post',
  prefix: 'STARPOST#',
  pk: inGuild,
  sk: (f: { guildId: string; postId: string }) => [f.postId],
  parse: (item) => String(item.original_message_id),
});

/** The entry's API record (behaviour §11). */
export function entryRecord(entry: StarboardEntry) {
  const { _author_id: _a, _claim: _c, _claimed_at: _t, ...record } = entry;
  return record;
}

const alive = (entry: StarboardEntry, now: number) => Date.parse(entry.monitoring_start) + ENTRY_LIFETIME_MS > now;
/** When an entry and its post pointer expire (epoch seconds): 31 days after monitoring started. */
const expiresAt = (entry: StarboardEntry) => Math.floor((Date.parse(entry.monitoring_start) + ENTRY_LIFETIME_MS) / 1000);

/** The live entry of an original message, or null (none, or older than 31 days). */
export async function getEntry(guildId: string, messageId: string, now = Date.now()): Promise<StarboardEntry | null> {
  return liveEntry(await StarboardEntity.get({ guildId, messageId }), now);
}

/** The entry, if it is still live (younger than 31 days). */
export const liveEntry = (entry: StarboardEntry | null, now = Date.now()): StarboardEntry | null => (entry && alive(entry, now) ? entry : null);

/**
 * Claims the entry of a message that has none (or only an expired one, or
 * one whose claimer never made its post within `staleMs`): one conditional
 * write, so of two checks at once exactly one posts. Answers whether this
 * claim won.
 */
export function claimEntry(entry: StarboardEntry, staleBefore: number): Promise<boolean> {
  const cutoff = new Date(Date.now() - ENTRY_LIFETIME_MS).toISOString();
  return StarboardEntity.put(
    { guildId: entry.guild_id, messageId: entry.original_message_id },
    {
      gsi1pk: authorPartition(entry.guild_id, entry._author_id),
      gsi1sk: entry.original_message_id,
      expires_at: expiresAt(entry),
      ...entry,
    },
    {
      condition: {
        $or: [{ pk: { exists: false } }, { monitoring_start: { lt: cutoff } }, { $and: [{ starboard_message_id: '' }, { _claimed_at: { lt: staleBefore } }] }],
      },
    },
  );
}

/** Records the post the claimer made, and its pointer back to the original; false (nothing written) when another check took the claim over meanwhile. */
export async function completeEntry(entry: StarboardEntry, postId: string): Promise<boolean> {
  const guildId = entry.guild_id;
  const held = await StarboardEntity.update(
    { guildId, messageId: entry.original_message_id },
    { set: { starboard_message_id: postId }, condition: { _claim: entry._claim }, returnValues: 'NONE' },
  );
  if (held) await PostEntity.put({ guildId, postId }, { original_message_id: entry.original_message_id, expires_at: expiresAt(entry) });
  return held;
}

/** Sets the star count an entry's post shows (an entry removed meanwhile stays removed). */
export async function setStarCount(guildId: string, messageId: string, count: number): Promise<void> {
  await StarboardEntity.update({ guildId, messageId }, { set: { star_count: count }, condition: { pk: { exists: true } }, returnValues: 'NONE' });
}

/** The original message a starboard post was made for, or null. */
export function originalOfPost(guildId: string, postId: string): Promise<string | null> {
  return PostEntity.get({ guildId, postId });
}

/** Removes an entry (if it is still there) and its post pointer; answers what it held. */
export async function removeEntry(guildId: string, messageId: string): Promise<StarboardEntry | null> {
  const entry = await StarboardEntity.delete({ guildId, messageId }, { returnOld: true });
  if (entry?.starboard_message_id) await PostEntity.delete({ guildId, postId: entry.starboard_message_id });
  return entry;
}

/** The guild's entries, newest first. */
export async function listStarboardEntries(guildId: string): Promise<StarboardEntry[]> {
  return (await StarboardEntity.query({ guildId })).sort((a, b) => b.id - a.id);
}

/** The entries of a member's messages (gsi1; privacy). */
export function starboardEntriesOfAuthor(guildId: string, authorId: string): Promise<StarboardEntry[]> {
  return StarboardEntity.index('gsi1').query({ guildId, authorId });
}

/** What deleting an entry needs: its message, and its post once made. */
type EntryKeys = Pick<StarboardEntry, 'guild_id' | 'original_message_id' | 'starboard_message_id'>;

/** Deletes entries and their post pointers, unconditionally. */
export async function deleteStarboardItems(entries: EntryKeys[]): Promise<void> {
  await Promise.all([
    StarboardEntity.deleteMany(entries.map((e) => ({ guildId: e.guild_id, messageId: e.original_message_id }))),
    PostEntity.deleteMany(entries.filter((e) => e.starboard_message_id).map((e) => ({ guildId: e.guild_id, postId: e.starboard_message_id }))),
  ]);
}
