/**
 * The bot's statistics batches through the whole loop: recordings wait for
 * their guild's batch (here longer than the test), and the bot sends what
 * it holds when it stops.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, snowflake } from '#test/helpers/local.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop({ botStatsFlushMs: 10 * 60_000 });
});
afterAll(() => loop?.stop());

it('holds message statistics for the batch, and sends them when the bot stops', async () => {
  const guild = snowflake();
  const channel = await loop.sandbox.channelIn(guild);
  ok(await loop.service.call('POST', '/modules/serverstats/enable', { body: { guild_id: guild } }));
  const posted = [];
  for (const text of ['one', 'two', 'three']) posted.push((await loop.sandbox.post(channel, snowflake(), { content: text })).id);
  const held = () => loop.botLines.filter((line) => line.includes('"POST /modules/serverstats/stats/messages/sent"') && line.includes(`"status":202`));
  await eventually(async () => held().length === 3, 15_000, `three messages held\n${loop.botLines.join('\n')}`);
  const counted = async () =>
    ok(await loop.service.call('GET', '/modules/serverstats/stats/messages/sent', { query: { guild_id: guild } })).stats as { message_id: string }[];
  expect(await counted()).toEqual([]);

  await loop.service.bot!.stop();
  expect((await counted()).map((s) => s.message_id).sort()).toEqual([...posted].sort());
  expect(loop.botLines.some((line) => line.includes('"event":"statistics batch"') && line.includes('"records":3') && line.includes('"status":200'))).toBe(true);
});
