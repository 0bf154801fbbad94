/**
 * Server statistics through the whole loop: members star a message and post
 * on the sandbox; the reference bot reports each event; the starboard post
 * appears and keeps its count, and the message is counted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Message } from '#shared/platform/types.js';
import { ok, snowflake } from '#test/helpers/local.js';
import { membersOf } from '#test/integration/welcoming/members-sandbox.js';
import { eventually, type Loop, startLoop } from './loop.js';

const STAR = '⭐';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

async function statsGuild(settings: Record<string, unknown> = {}) {
  const guild = snowflake();
  const channel = await loop.sandbox.channelIn(guild);
  ok(await loop.service.call('POST', '/modules/serverstats/enable', { body: { guild_id: guild } }));
  const saved = ok(await loop.service.call('PUT', '/modules/serverstats/settings', { body: { guild_id: guild, ...settings } })).settings;
  return { guild, channel, settings: saved };
}

const postsIn = async (channel: string) => (await membersOf(loop.service).api<Message[]>(`/channels/${channel}/messages`)).body;

it('three stars from members put a message on the starboard, and a star taken back lowers its count', async () => {
  const { channel, settings } = await statsGuild({ starboard_channel_id: 'create', starboard_enabled: true });
  const board = settings.starboard_channel_id as string;
  const message = await loop.sandbox.post(channel, snowflake(), { content: 'A great idea' });
  const fans = [snowflake(), snowflake(), snowflake()];
  for (const fan of fans) await loop.sandbox.react(channel, message.id, STAR, fan);

  const shown = (count: number) => async () => (await postsIn(board)).find((p) => p.content === `${STAR} **${count}** <#${channel}>`);
  await eventually(shown(3), 15_000, `the starboard post with 3 stars\n${loop.botLines.join('\n')}`);

  await loop.sandbox.unreact(channel, message.id, STAR, fans[0]!);
  await eventually(shown(2), 15_000, 'the starboard post with 2 stars');
  expect(await postsIn(board)).toHaveLength(1);
});

it("a member's message is counted in the messages statistic", async () => {
  const { guild, channel } = await statsGuild();
  const author = snowflake();
  const message = await loop.sandbox.post(channel, author, { content: 'hello' });
  const counted = await eventually(
    async () => {
      const { data } = await loop.service.call('GET', '/modules/serverstats/stats/messages/sent', { query: { guild_id: guild } }).then((r) => r.body);
      return data.stats.find((s: { message_id: string }) => s.message_id === message.id);
    },
    15_000,
    'the message counted',
  );
  expect(counted).toMatchObject({ channel_id: channel, author_id: author });
});

it("a member's time in a voice channel is recorded from the join to the leave", async () => {
  const { guild } = await statsGuild();
  const voice = snowflake();
  await loop.act('PUT', `/_sandbox/channels/${voice}`, { guild_id: guild, name: 'voice', type: 2 });
  const member = snowflake();
  const voiceStats = async () =>
    (await loop.service.call('GET', '/modules/serverstats/stats/voice', { query: { guild_id: guild } })).body.data.stats.filter(
      (s: { user_id: string }) => s.user_id === member,
    );

  await loop.act('PUT', `/_sandbox/guilds/${guild}/voice/${member}`, { channel_id: voice });
  await eventually(async () => (await voiceStats()).length === 1, 15_000, `the voice join\n${loop.botLines.join('\n')}`);
  await loop.act('PUT', `/_sandbox/guilds/${guild}/voice/${member}`, { channel_id: null });
  const [stat] = await eventually(
    async () => {
      const stats = await voiceStats();
      return stats[0]?.left_at && stats;
    },
    15_000,
    'the voice leave',
  );
  expect(stat).toMatchObject({ channel_id: voice, user_id: member, left_at: expect.any(String) });
});
