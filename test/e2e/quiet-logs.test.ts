/**
 * The bot's log stays quiet (issue 44): with its real module-state time to
 * live, a reaction in a guild that enabled only reaction roles calls only
 * reaction roles (no 404 from polls, no 409 from the statistics), and a
 * start in such a guild sends no member total.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, snowflake } from '#test/helpers/local.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop({ botModuleStateTtlMs: 60_000 });
});
afterAll(() => loop?.stop());

it('a reaction in a guild that enabled only reaction roles calls only reaction roles, and logs at info', async () => {
  const guild = snowflake();
  ok(await loop.service.call('POST', '/modules/reactionroles/enable', { body: { guild_id: guild } }));
  const channel = await loop.sandbox.channelIn(guild);
  const message = await loop.sandbox.post(channel, snowflake(), { content: 'hello' });
  await loop.sandbox.react(channel, message.id, '👍', snowflake());
  const line = await eventually(
    async () => loop.botLines.map((l) => JSON.parse(l)).find((l) => l.event === 'MESSAGE_REACTION_ADD' && l.guild === guild),
    15_000,
    `the reaction's line\n${loop.botLines.join('\n')}`,
  );
  expect(line.calls.map((c: { operation: string }) => c.operation)).toEqual(['POST /modules/reactionroles/check']);
  expect(line.level).not.toBe('error');
  const lines = loop.botLines.map((l) => JSON.parse(l)).filter((l) => l.guild === guild);
  expect(lines.flatMap((l) => l.calls ?? []).filter((c: { status: number }) => c.status === 409)).toEqual([]);
});
