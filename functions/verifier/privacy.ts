/**
 * The privacy pair (behaviour §12): the member's verification entries are
 * counted and removed. No names are kept. Entries stored before a settings
 * delete are gone already (behaviour §15): not counted.
 */
import { readModuleState } from '#shared/modules/store.js';
import { deleteVerifications, listVerifications } from './store.js';
import { MODULE } from './verifier.js';

async function ofMember(guildId: string, memberId: string) {
  const state = await readModuleState(guildId, MODULE);
  return (await listVerifications(guildId, state?.data_since)).filter((v) => v.user_id === memberId);
}

export async function countMemberEntries(guildId: string, memberId: string) {
  return (await ofMember(guildId, memberId)).length;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const entries = await ofMember(guildId, memberId);
  await deleteVerifications(entries);
  return `Removed ${entries.length} verification entr${entries.length === 1 ? 'y' : 'ies'} of member ${memberId} in guild ${guildId}.`;
}
