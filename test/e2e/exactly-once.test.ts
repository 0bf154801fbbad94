/**
 * Exactly once through the whole loop (behaviour §16): the platform is slow
 * to take the welcome (two 429s asking 4.9 s each, then a 500 that takes a
 * while), so the service's call runs past ten seconds. The bot waits for it
 * rather than sending the join again; and a bot whose attempt is cut off
 * anyway (its connection dropped) sends it again with the join's key, which
 * the service does once. Either way the welcome channel shows one welcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '#shared/platform/types.js';
import { snowflake } from '#test/helpers/local.js';
import { addResponse, welcomingGuild, worldOf } from '#test/integration/welcoming/helpers.js';
import { eventually, type Loop, startLoop } from './loop.js';

/** A member joins while the platform is slow to take the welcome; answers the welcome channel's messages once every call has settled. */
async function slowWelcome(loop: Loop): Promise<string[]> {
  const world = worldOf(loop.service);
  const welcome = snowflake();
  const guild = await welcomingGuild(world, { welcome_messages_enabled: true, welcome_messages_channel: welcome });
  await world.members.nameGuild(guild, 'Tea Club');
  await addResponse(world, guild, 2, 'Welcome <user_name> to <server_name>!');
  const posts = `^/channels/${welcome}/messages$`;
  await loop.sandbox.fault({ method: 'POST', path: posts, status: 429, retry_after: 4.9, times: 2 });
  await loop.sandbox.fault({ method: 'POST', path: posts, status: 500, delay_ms: 1_500 });

  await world.members.join(guild, snowflake(), { username: 'alice', global_name: 'Alice' });

  // Settled: the bot has its answers to every call for the join, and the service's first call, past its 500, has posted.
  const posted = async () => (await loop.sandbox.requests()).filter((r) => r.method === 'POST' && new RegExp(posts).test(r.path)).map((r) => r.status);
  const lines = () => `\n${loop.botLines.join('\n')}`;
  await eventually(async () => loop.botLines.some((line) => JSON.parse(line).event === 'GUILD_MEMBER_ADD'), 60_000, `the bot's line for the join${lines()}`);
  await eventually(
    async () => {
      const statuses = await posted();
      return statuses.includes(500) && statuses.slice(statuses.indexOf(500)).includes(200);
    },
    30_000,
    `the welcome past the 500${lines()}`,
  );
  const shown = (await world.members.api<Message[]>(`/channels/${welcome}/messages`)).body.map((m) => m.content);
  if (shown.length !== 1) console.error(`platform answers to the welcome posts: ${(await posted()).join(', ')}${lines()}`);
  return shown;
}

describe('the bot as shipped', () => {
  let loop: Loop;
  beforeAll(async () => {
    loop = await startLoop();
  });
  afterAll(() => loop?.stop());

  it('waits for a join whose welcome the platform is slow to take: welcomed once', { timeout: 90_000 }, async () => {
    expect(await slowWelcome(loop)).toEqual(['Welcome Alice to Tea Club!']);
  });
});

describe('a bot whose attempts are cut off after 3 s, as by a dropped connection', () => {
  let loop: Loop;
  beforeAll(async () => {
    loop = await startLoop({ botAttemptTimeoutMs: 3_000 });
  });
  afterAll(() => loop?.stop());

  it("sends the join's calls again while the first still runs, with its key: welcomed once", { timeout: 90_000 }, async () => {
    expect(await slowWelcome(loop)).toEqual(['Welcome Alice to Tea Club!']);
    const join = loop.botLines.map((line) => JSON.parse(line)).find((line) => line.event === 'GUILD_MEMBER_ADD');
    // The bot did send the welcome again: this is the key at work, not the patience of the first scenario.
    expect(join.calls.find((c: { operation: string }) => c.operation === 'POST /modules/welcoming/check/welcome/channel').attempts).toBeGreaterThan(1);
  });
});
