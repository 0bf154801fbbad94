/**
 * The privacy pair (contract 5): the socials module keeps no member data.
 * Entries name guilds, channels and sources; announcements name nobody. So
 * every count is 0 and there is nothing to delete, and the answers say so.
 */
export function countMemberEntries() {
  return { username: 0, display_name: 0, global_name: 0, nickname: 0, id: 0 };
}

export function deleteMemberEntries(guildId: string, memberId: string) {
  return { message: `The socials module keeps no member data: nothing of member ${memberId} is stored for guild ${guildId}.` };
}
