/**
 * Many statistic records at once, as recordings would have stored them, 25
 * a batch write and eight batches at a time: how the delete tests and the
 * bench make a guild with thousands of records in seconds.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { statItem } from '#functions/serverstats/store.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';

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
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  for (let i = 0; i < batches.length; i += 8) {
    await Promise.all(
      batches.slice(i, i + 8).map(async (batch) => {
        let pending = batch.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (out.UnprocessedItems?.[tableName()] as typeof pending | undefined) ?? [];
        }
      }),
    );
  }
}
