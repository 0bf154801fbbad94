/**
 * The privacy pair (behaviour §5 and §12): the statistic records naming the
 * member (`user_id`, `member_id`, `author_id`, `triggering_user_id`: all
 * filed under the member's gsi1 partition, every family at once), their open
 * presence and voice sessions, and starboard entries of their messages. The
 * module keeps no names.
 */
import { getPurge } from './purge.js';
import { deleteStarboardItems, starboardEntriesOfAuthor } from './starboard-store.js';
import { deleteMemberStats, memberRecords } from './store.js';

/** While a settings delete's removal runs, records stored before it are not counted: they read as gone. */
export async function countMemberEntries(guildId: string, memberId: string) {
  const [records, entries, purge] = await Promise.all([memberRecords(guildId, memberId), starboardEntriesOfAuthor(guildId, memberId), getPurge(guildId)]);
  return (purge ? records.filter((record) => record.time >= purge.cutoff) : records).length + entries.length;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const [records, entries] = await Promise.all([memberRecords(guildId, memberId), starboardEntriesOfAuthor(guildId, memberId)]);
  await Promise.all([deleteMemberStats(guildId, memberId, records), deleteStarboardItems(entries)]);
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `Removed ${n(records.length, 'statistic record', 'statistic records')} and ${n(entries.length, 'starboard entry', 'starboard entries')} of member ${memberId} in guild ${guildId}.`;
}
