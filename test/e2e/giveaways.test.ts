/**
 * Giveaways through the whole loop: a member clicks Enter (then Leave) on
 * the giveaway message on the sandbox; the bot passes the click to the
 * service; the message's entrant count follows and the member is told.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, snowflake } from '#test/helpers/local.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

it('Enter and Leave on the giveaway message move its entrant count', async () => {
  const { service, sandbox } = loop;
  const guild = snowflake();
  const channel = await sandbox.channelIn(guild);
  ok(await service.call('POST', '/modules/giveaways/enable', { body: { guild_id: guild } }));
  const giveaway = ok(
    await service.call('POST', '/modules/giveaways/entries', {
      body: { guild_id: guild, channel_id: channel, giveaway_owner_id: snowflake(), prize: 'A golden mug', winner_count: 1, end_time: '1h', description: null },
    }),
  ).entry;
  const [enter, leave] = (await sandbox.message(channel, giveaway.message_id))!.components![0]!.components;
  const entrants = async (n: number) => (await sandbox.message(channel, giveaway.message_id))?.embeds[0]?.description?.includes(`**Entrants:** ${n}`);
  const member = snowflake();
  const click = (customId: string) =>
    loop.act('POST', `/_sandbox/channels/${channel}/messages/${giveaway.message_id}/click`, { user_id: member, custom_id: customId });

  expect(enter!.label).toBe('Enter');
  const entered = await click(enter!.custom_id!);
  await eventually(() => entrants(1), 15_000, `1 entrant on the message\n${loop.botLines.join('\n')}`);
  const told = await eventually(
    async () => {
      const texts = await loop.toldMember(entered.interaction_id);
      return texts.length > 0 && texts;
    },
    15_000,
    'the answer to the member',
  );
  expect(told).toEqual(['You entered the giveaway. Good luck!']);

  await click(leave!.custom_id!);
  await eventually(() => entrants(0), 15_000, '0 entrants on the message');
});
