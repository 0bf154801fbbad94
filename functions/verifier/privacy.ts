/**
 * The privacy pair (behaviour §12): the member's verification entries are
 * counted and removed. No names are kept.
 */
import { deleteVerifications, listVerifications } from './store.js';

const ofMember = async (guildId: string, memberId: string) => (await listVerifications(guildId)).filter((v) => v.user_id === memberId);

export async function countMemberEntries(guildId: string, memberId: string) {
  return (await ofMember(guildId, memberId)).length;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const entries = await ofMember(guildId, memberId);
  await deleteVerifications(entries);
  return `Removed ${entries.length} verification entr${entries.length === 1 ? 'y' : 'ies'} of member ${memberId} in guild ${guildId}.`;
}
