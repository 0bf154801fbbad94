/**
 * The privacy pair (behaviour §5 and §12): the statistic records naming the
 * member (`user_id`, `member_id`, `author_id`, `triggering_user_id`: all
 * filed under the member's gsi1 partition, every family at once), their open
 * presence and voice sessions, and starboard entries of their messages. The
 * module keeps no names.
 */
import { starboardEntriesOfAuthor, starboardKeys } from './starboard-store.js';
import { keyOf } from '#shared/db/batch.js';
import { getPurge } from './purge.js';
import { type Item, type Key, deleteKeys, memberRecordsPage, memberSessionKeys, storedBefore } from './store.js';

/** Every page of the member's records, as keys. */
async function memberRecordKeys(guildId: string, memberId: string): Promise<Key[]> {
  const keys: Key[] = [];
  let start: Item | undefined;
  do {
    const page = await memberRecordsPage(guildId, memberId, start);
    keys.push(...page.items.map(keyOf));
    start = page.lastKey ?? undefined;
  } while (start);
  return keys;
}

/** While a settings delete's removal runs, records stored before it are not counted: they read as gone. */
export async function countMemberEntries(guildId: string, memberId: string) {
  const [records, entries, purge] = await Promise.all([memberRecordKeys(guildId, memberId), starboardEntriesOfAuthor(guildId, memberId), getPurge(guildId)]);
  return (purge ? records.filter((key) => !storedBefore(key, purge.cutoff)) : records).length + entries.length;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const [records, sessions, entries] = await Promise.all([
    memberRecordKeys(guildId, memberId),
    memberSessionKeys(guildId, memberId),
    starboardEntriesOfAuthor(guildId, memberId),
  ]);
  await deleteKeys([...records, ...sessions, ...starboardKeys(entries)]);
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `Removed ${n(records.length, 'statistic record', 'statistic records')} and ${n(entries.length, 'starboard entry', 'starboard entries')} of member ${memberId} in guild ${guildId}.`;
}
