/** The starboard: one post per starred message even under a race, its count following the stars. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '#shared/platform/types.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { StarboardEntity } from '#functions/serverstats/starboard-store.js';
import { eventually } from '#test/integration/polls/helpers.js';
import { membersOf } from '../welcoming/members-sandbox.js';
import { SS, ok, statsGuild } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const STAR = '⭐';

async function starboardGuild(): Promise<{ guild: string; board: string }> {
  const guild = await statsGuild(service);
  const settings = ok(
    await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, starboard_channel_id: 'create', starboard_enabled: true } }),
  ).settings;
  return { guild, board: settings.starboard_channel_id };
}

const postsIn = async (channel: string) => (await membersOf(service).api<Message[]>(`/channels/${channel}/messages`)).body;
const check = (what: string, body: Record<string, unknown>) => service.call('POST', `${SS}/starboard/check/${what}`, { body });

/** A member's message in a new channel of the guild, starred by `stars` other members (and by its author, which never counts). */
async function starred(guild: string, stars: number): Promise<{ channel: string; message: Message; author: string }> {
  const channel = await sandboxOf(service).channelIn(guild);
  const author = snowflake();
  const sandbox = sandboxOf(service);
  const message = await sandbox.post(channel, author, { content: 'A **great** idea' });
  await sandbox.react(channel, message.id, STAR, author);
  for (let i = 0; i < stars; i++) await sandbox.react(channel, message.id, STAR, snowflake());
  return { channel, message, author };
}

describe('starboard', () => {
  it('posts a message once it has enough stars from others, and keeps the count in step', async () => {
    const { guild, board } = await starboardGuild();
    const { channel, message } = await starred(guild, 2);
    const at = { guild_id: guild, channel_id: channel, message_id: message.id };
    expect(ok(await check('add', at)).message).toContain('2 of 3');
    expect(await postsIn(board)).toEqual([]);

    const third = snowflake();
    await sandboxOf(service).react(channel, message.id, STAR, third);
    expect(ok(await check('add', at)).message).toContain('Posted');
    const [post] = await postsIn(board);
    expect(post!.content).toBe(`${STAR} **3** <#${channel}>`);
    expect(post!.embeds[0]!.description).toBe('A **great** idea');
    expect(post!.embeds[0]!.fields![0]!.value).toContain(`/${guild}/${channel}/${message.id}`);

    await sandboxOf(service).react(channel, message.id, STAR, snowflake());
    ok(await check('add', at));
    expect((await postsIn(board))[0]!.content).toBe(`${STAR} **4** <#${channel}>`);
    await sandboxOf(service).unreact(channel, message.id, STAR, third);
    ok(await check('remove', at));
    const posts = await postsIn(board);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.content).toBe(`${STAR} **3** <#${channel}>`);

    const entries = ok(await service.call('POST', `${SS}/disable`, { body: { guild_id: guild } })).starboard_entries;
    expect(entries).toEqual([
      expect.objectContaining({
        guild_id: guild,
        original_message_id: message.id,
        original_channel_id: channel,
        starboard_message_id: posts[0]!.id,
        star_count: 3,
      }),
    ]);
  });

  it('makes one post when many checks arrive at once', async () => {
    const { guild, board } = await starboardGuild();
    const { channel, message } = await starred(guild, 3);
    const results = await Promise.all(Array.from({ length: 8 }, () => check('add', { guild_id: guild, channel_id: channel, message_id: message.id })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await postsIn(board)).toHaveLength(1);
  });

  it('keeps one post when a slow check is taken over: the slow one withdraws its own post and answers 200', async () => {
    const { guild, board } = await starboardGuild();
    const { channel, message } = await starred(guild, 3);
    const at = { guild_id: guild, channel_id: channel, message_id: message.id };
    // The first check's post is held (a slow 429, then the retry) while its claim is made stale, as if it had stalled a minute.
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${board}/messages$`, status: 429, retry_after: 0.5, delay_ms: 1500 });
    const slow = check('add', at);
    const fields = { guildId: guild, messageId: message.id };
    await eventually(async () => Boolean((await StarboardEntity.get(fields))?._claim));
    await StarboardEntity.update(fields, { set: { _claimed_at: 0 }, returnValues: 'NONE' });
    expect(ok(await check('add', at)).message).toContain('Posted');
    expect(ok(await slow).message).toContain('withdrew its own post');
    const posts = await postsIn(board);
    expect(posts).toHaveLength(1);
    expect((await StarboardEntity.get(fields))!.starboard_message_id).toBe(posts[0]!.id);
  });

  it('never stars the starboard channel, and says when the starboard is off', async () => {
    const { guild, board } = await starboardGuild();
    const own = await sandboxOf(service).post(board, snowflake(), { content: 'here' });
    expect(ok(await check('add', { guild_id: guild, channel_id: board, message_id: own.id })).message).toContain('never starred');
    const off = await statsGuild(service);
    expect(ok(await check('add', { guild_id: off, channel_id: await sandboxOf(service).channelIn(off), message_id: snowflake() })).message).toContain('off');
  });

  it('removes the post with its original, and the entry with its post', async () => {
    const { guild, board } = await starboardGuild();
    const first = await starred(guild, 3);
    const second = await starred(guild, 3);
    for (const s of [first, second]) ok(await check('add', { guild_id: guild, channel_id: s.channel, message_id: s.message.id }));
    const posts = await postsIn(board);
    expect(posts).toHaveLength(2);

    expect(ok(await check('deleted-message', { guild_id: guild, message_id: first.message.id })).message).toContain('removed');
    expect(await postsIn(board)).toHaveLength(1);
    const secondPost = (await postsIn(board))[0]!;
    expect(ok(await check('deleted-message', { guild_id: guild, message_id: secondPost.id })).message).toContain('dropped');
    expect(ok(await check('deleted-message', { guild_id: guild, message_id: snowflake() })).message).toContain('nothing to do');
    const settings = ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    expect(settings.starboard_entries).toEqual([]);
  });

  it('turns itself off when its channel is deleted', async () => {
    const { guild, board } = await starboardGuild();
    const s = await starred(guild, 3);
    ok(await check('add', { guild_id: guild, channel_id: s.channel, message_id: s.message.id }));
    expect(ok(await check('delete', { guild_id: guild, channel_id: snowflake() })).message).toContain('nothing to do');
    expect(ok(await check('delete', { guild_id: guild, channel_id: board })).message).toContain('1 entry was cleared');
    const settings = ok(await service.call('GET', `${SS}/settings`, { query: { guild_id: guild } })).settings;
    expect(settings).toMatchObject({ starboard_enabled: false, starboard_channel_id: null });
  });

  it('is set up with POST /starboard, and checks are internal', async () => {
    const guild = await statsGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    expect(ok(await service.call('POST', `${SS}/starboard`, { body: { guild_id: guild, channel_id: channel } })).message).toContain(channel);
    expect(ok(await service.call('GET', `${SS}/settings`, { query: { guild_id: guild } })).settings).toMatchObject({
      starboard_enabled: true,
      starboard_channel_id: channel,
    });
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    expect(
      (await service.call('POST', `${SS}/starboard/check/add`, { token: key, body: { guild_id: guild, channel_id: channel, message_id: snowflake() } })).status,
    ).toBe(403);
    const bad = await service.call('POST', `${SS}/starboard`, { looseBody: { guild_id: guild } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).message).toContain("'channel_id'");
    const other = snowflake();
    const disabled = await service.call('POST', `${SS}/starboard`, { body: { guild_id: other, channel_id: await sandboxOf(service).channelIn(other) } });
    expect(disabled.status).toBe(409);
  });

  it("counts and removes the entries of a member's messages for privacy", async () => {
    const { guild } = await starboardGuild();
    const s = await starred(guild, 3);
    ok(await check('add', { guild_id: guild, channel_id: s.channel, message_id: s.message.id }));
    const query = { guild_id: guild, privacy_member_id: s.author };
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query })).id).toBe(1);
    expect(ok(await service.call('DELETE', `${SS}/privacy/delete-user-entries`, { body: query })).message).toContain('1 starboard entry');
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query })).id).toBe(0);
  });
});
