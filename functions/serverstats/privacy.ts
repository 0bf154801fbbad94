/**
 * The privacy pair (behaviour §5 and §12): the statistic records naming the
 * member (`user_id`, `member_id`, `author_id`, `triggering_user_id`: all
 * filed under the member's gsi1 partition, every family at once, and the
 * batched ones in the guild's packs and their filed copies), their open presence and voice
 * sessions, and starboard entries of their messages. The module keeps no
 * names.
 */
import { readModuleState } from '#shared/modules/store.js';
import { deleteMemberFiled, memberFiledStats } from './filing.js';
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
  const [records, packedOnly, filed, entries, purge, state] = await Promise.all([
    memberRecords(guildId, memberId),
    memberPackedStats(guildId, memberId),
    memberFiledStats(guildId, memberId),
    starboardEntriesOfAuthor(guildId, memberId),
    getPurge(guildId),
    readModuleState(guildId, 'serverstats'),
  ]);
  const since = state?.data_since ?? '';
  // A filed record is a copy of a packed one: counted once, and on its own only where its pack no longer holds it (a delete cut short).
  const ids = new Set(packedOnly.map((stat) => stat.id));
  const packed = [...packedOnly, ...filed.filter((stat) => !ids.has(stat.id))];
  return (
    (purge ? records.filter((record) => record.time >= purge.cutoff) : records).length + packed.filter((stat) => stat.time >= since).length + entries.length
  );
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const [records, entries] = await Promise.all([memberRecords(guildId, memberId), starboardEntriesOfAuthor(guildId, memberId)]);
  const packedIds = new Set<number>();
  const [packedCount] = await Promise.all([
    deleteMemberPacked(guildId, memberId, packedIds),
    deleteMemberStats(guildId, memberId, records),
    deleteStarboardItems(entries),
  ]);
  // The filed copies after the packs: a filing job running meanwhile sees its packs change and files the hour again.
  const filed = await deleteMemberFiled(guildId, memberId);
  const packed = packedCount + [...filed].filter((id) => !packedIds.has(id)).length;
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `Removed ${n(records.length + packed, 'statistic record', 'statistic records')} and ${n(entries.length, 'starboard entry', 'starboard entries')} of member ${memberId} in guild ${guildId}.`;
}
