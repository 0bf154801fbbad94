/**
 * The privacy pair (behaviour §5): how many stored references a member has in
 * the guild's polls (each vote, each poll they own), and deleting them: their
 * votes go (counts follow, messages re-render) and their ownership is
 * forgotten. The module keeps no names.
 */
import { requestRefresh } from './refresh-request.js';
import { PollType, votesIn } from './model.js';
import { clearOwner, deleteVoter, listPolls, votersOfMember } from './store.js';

export async function countMemberEntries(guildId: string, memberId: string) {
  const polls = await listPolls(guildId);
  const votes = await votersOfMember(
    guildId,
    polls.map((p) => p.poll_id),
    memberId,
  );
  const voteCount = [...votes.values()].reduce((sum, voter) => sum + votesIn(voter.votes), 0);
  const owned = polls.filter((p) => p.poll_owner_id === memberId).length;
  return voteCount + owned;
}

export async function deleteMemberEntries(guildId: string, memberId: string) {
  const polls = await listPolls(guildId);
  const votes = await votersOfMember(
    guildId,
    polls.map((p) => p.poll_id),
    memberId,
  );
  let removedVotes = 0;
  for (const poll of polls) {
    const voter = votes.get(poll.poll_id);
    if (!voter) continue;
    await deleteVoter(guildId, poll.poll_id, memberId);
    removedVotes += votesIn(voter.votes);
    // The message (results included) must not show the member any more.
    if (poll.poll_type === PollType.Service) await requestRefresh(guildId, poll.poll_id);
  }
  let owned = 0;
  for (const poll of polls) if (poll.poll_owner_id === memberId && (await clearOwner(guildId, poll.poll_id, memberId))) owned++;
  return `Removed ${removedVotes} vote${removedVotes === 1 ? '' : 's'} of member ${memberId} and forgot them as the owner of ${owned} poll${owned === 1 ? '' : 's'} in guild ${guildId}.`;
}
