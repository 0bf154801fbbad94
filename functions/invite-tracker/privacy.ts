/**
 * The privacy pair (behaviour §12): uses where the member joined or invited,
 * and their ownership of invites. Deleting removes those uses and makes
 * them own no invite (`owner_id` null). No names are kept. Uses stored
 * before a settings delete are gone already (behaviour §15): not counted.
 */
import { readModuleState } from '#shared/modules/store.js';
import { deleteUses, listInvites, storedSince, updateInvite, usesByInviter, usesOfMember } from './store.js';
import { MODULE } from './tracker.js';

async function referencesOf(guildId: string, memberId: string) {
  const [joined, invited, invites, state] = await Promise.all([
    usesOfMember(guildId, memberId),
    usesByInviter(guildId, memberId),
    listInvites(guildId),
    readModuleState(guildId, MODULE),
  ]);
  const live = [...joined, ...invited].filter((u) => storedSince(u, state?.data_since));
  const uses = [...new Map(live.map((u) => [u.id, u])).values()];
  return { uses, owned: invites.filter((i) => i.owner_id === memberId) };
}

export async function countMemberEntries(guildId: string, memberId: string) {
  const { uses, owned } = await referencesOf(guildId, memberId);
  return uses.length + owned.length;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const { uses, owned } = await referencesOf(guildId, memberId);
  if (uses.length) await deleteUses(uses);
  for (const invite of owned) await updateInvite(guildId, invite.invite_id, { owner_id: null });
  return `Removed ${uses.length} invite use${uses.length === 1 ? '' : 's'} of member ${memberId} and their ownership of ${owned.length} invite${owned.length === 1 ? '' : 's'} in guild ${guildId}.`;
}
