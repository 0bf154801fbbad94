/** Many statistic records at once, as recordings would have stored them: how the delete tests and the bench make a guild with thousands of records. */
import { statItem } from '#functions/serverstats/store.js';
import { putAll } from '#test/helpers/seed.js';

/** Stores `count` `messages/sent` records of the last hour in the guild, each naming `member` in channel 100. */
export async function seedMessages(guild: string, member: string, count: number): Promise<void> {
  const start = Date.now() - 3_600_000;
  const channel = '100';
  const items = Array.from({ length: count }, (_, i) => {
    const time = new Date(start + (i % 3_000_000)).toISOString();
    return statItem({
      guildId: guild,
      family: 'messages/sent',
      id: i + 1,
      time,
      memberId: member,
      channelId: channel,
      record: { id: i + 1, guild_id: guild, channel_id: channel, author_id: member, message_id: String(1000 + i), timestamp: time },
    });
  });
  await putAll(items);
}
