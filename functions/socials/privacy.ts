/**
 * The privacy pair (behaviour §5): the socials module keeps no member data.
 * Entries name guilds, channels and sources; announcements name nobody. So
 * every count is 0 and there is nothing to delete, and the answers say so.
 */
export function countMemberEntries() {
  return 0;
}

export function deleteMemberEntries(guildId: string, memberId: string) {
  return `The socials module keeps no member data: nothing of member ${memberId} is stored for guild ${guildId}.`;
}
