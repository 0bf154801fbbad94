/** Large entrant lists for the giveaway tests, written straight into the table as the bench writes them. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EntrantEntity } from '#functions/giveaways/entrants.js';
import { GiveawayEntity } from '#functions/giveaways/store.js';
import { putItems } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { snowflake } from '#test/helpers/local.js';

/** Written into the table this many at a time, so 100,000 entrants never sit in one batch. */
const SEED_SLICE = 5000;

/** `n` members entered straight into the table, as `n` enters would have left it: their items and the count. */
export async function seedEntrants(guild: string, entryId: string, n: number): Promise<string[]> {
  const members = Array.from({ length: n }, snowflake);
  for (let i = 0; i < n; i += SEED_SLICE) {
    await putItems(members.slice(i, i + SEED_SLICE).map((memberId) => EntrantEntity.item({ guildId: guild, entryId, memberId }, { entered_at: null })));
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: GiveawayEntity.key({ guildId: guild, entryId }),
      UpdateExpression: 'ADD participant_count :n',
      ExpressionAttributeValues: { ':n': n },
    }),
  );
  return members;
}
