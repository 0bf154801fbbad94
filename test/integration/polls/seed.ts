/** Many voters at once, as votes would have stored them: how the delete test and the bench make a poll with thousands of voters. */
import { VoterEntity } from '#functions/polls/keys.js';
import { putAll } from '#test/helpers/seed.js';

/** Stores `n` voter items of the poll, members `first`, `first + 1`, ..., voting answer 1 or 2 in turn (the poll's counts are left as they are). */
export async function seedVoters(guild: string, pollId: string, n: number, first = 10n ** 17n): Promise<void> {
  await putAll(
    Array.from({ length: n }, (_, i) => {
      const memberId = String(first + BigInt(i));
      return VoterEntity.item(
        { guildId: guild, pollId, memberId },
        { guild_id: guild, poll_id: pollId, member_id: memberId, votes: { [String((i % 2) + 1)]: 1 }, version: 1, updated_at: new Date().toISOString() },
      );
    }),
  );
}
