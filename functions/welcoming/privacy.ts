/**
 * The privacy pair (behaviour §5 and §12): the module keeps members only in
 * their timed-role grants (pending, or made within the last day), counted
 * under `id` and removed with their due work. It keeps no names.
 */
import { cancelMemberGrants, liveGrants } from './grants.js';
import { memberGrants } from './store.js';

export async function countMemberEntries(guildId: string, memberId: string) {
  return (await liveGrants(guildId, await memberGrants(guildId, memberId))).length;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  // Grants of a deleted timed role go too, uncounted: they were already gone to every read.
  const removed = (await liveGrants(guildId, await cancelMemberGrants(guildId, memberId))).length;
  return `Removed ${removed} timed-role grant${removed === 1 ? '' : 's'} of member ${memberId} in guild ${guildId}.`;
}
