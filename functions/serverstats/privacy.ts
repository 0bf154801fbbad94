/**
 * The privacy pair (behaviour §5 and §12): the statistic records naming the
 * member (`user_id`, `member_id`, `author_id`, `triggering_user_id`: all
 * filed under the member's gsi1 partition, every family at once, and the
 * batched ones in the guild's packs), their open presence and voice
 * sessions, and starboard entries of their messages. The module keeps no
 * names.
 */
import { readModuleState } from '#shared/modules/store.js';
import { deleteMemberPacked, memberPackedStats } from './packs.js';
import { getPurge } from './purge.js';
import { deleteStarboardItems, starboardEntriesOfAuthor } from './starboard-store.js';
import { deleteMemberStats, memberRecords } from './store.js';

/**
 * While a settings delete's removal runs, records stored before it are not
 * counted: they read as gone. Batched records before the module's
 * `data_since` read as gone for good (a pack across a delete's time keeps
 * them until it expires, unanswered).
 */
export async function countMemberEntries(guildId: string, memberId: string) {
  const [records, packed, entries, purge, state] = await Promise.all([
    memberRecords(guildId, memberId),
    memberPackedStats(guildId, memberId),
    starboardEntriesOfAuthor(guildId, memberId),
    getPurge(guildId),
    readModuleState(guildId, 'serverstats'),
  ]);
  const since = state?.data_since ?? '';
  return (
    (purge ? records.filter((record) => record.time >= purge.cutoff) : records).length + packed.filter((stat) => stat.time >= since).length + entries.length
  );
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const [records, entries] = await Promise.all([memberRecords(guildId, memberId), starboardEntriesOfAuthor(guildId, memberId)]);
  const [packed] = await Promise.all([deleteMemberPacked(guildId, memberId), deleteMemberStats(guildId, memberId, records), deleteStarboardItems(entries)]);
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `Removed ${n(records.length + packed, 'statistic record', 'statistic records')} and ${n(entries.length, 'starboard entry', 'starboard entries')} of member ${memberId} in guild ${guildId}.`;
}
