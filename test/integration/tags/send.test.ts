/** Sending a tag: its variables, where it goes, who may be mentioned, private tags. */
import { describe, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { addTag, failed, ok, startWorld, tagsGuild } from './helpers.js';

const world = startWorld();

async function join(guild: string, user: string, names: { username?: string; nick?: string | null; global_name?: string | null }) {
  const origin = world.service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}/_sandbox/guilds/${guild}/members/${user}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(names),
  });
  if (!res.ok) throw new Error(`join: ${res.status}`);
}

const send = (guild: string, tagId: string, body: Record<string, unknown>, actor?: string) =>
  world.call('POST', `/entries/${tagId}/send`, { body: { guild_id: guild, ...body }, headers: actor ? { 'X-Acting-User-Id': actor } : {} });

async function lastMessage(channel: string) {
  const state = await world.sandbox.state();
  const messages = state.channels.find((c) => c.id === channel)?.messages ?? [];
  return messages[messages.length - 1];
}

describe('sending tags', () => {
  it("posts the content with the acting member's variables, letting only that member be mentioned", async () => {
    const guild = await tagsGuild(world);
    const member = snowflake();
    await join(guild, member, { username: 'ada', nick: 'Ada L.' });
    const channel = await world.sandbox.channelIn(guild);
    const tag = await addTag(world, guild, { names: ['hi'], content: 'Hi <user_mention> (<user_name>, <user_id>) @everyone <unknown>' });
    const answer = ok(await send(guild, tag.entry.tag_id, { channel_id: channel }, member));
    expect(answer.message).toContain(channel);
    const posted = await lastMessage(channel);
    // What a member sees: the text filled in, and no everyone ping (which members are pinged: test/unit/tags).
    expect(posted).toMatchObject({ content: `Hi <@${member}> (Ada L., ${member}) @everyone <unknown>`, mention_everyone: false });
  });

  it('speaks of user_mention_id when given, and answers the interaction for everyone to see when asked', async () => {
    const guild = await tagsGuild(world);
    const member = snowflake();
    const mentioned = snowflake();
    await join(guild, mentioned, { username: 'grace', nick: null, global_name: 'Grace H.' });
    const tag = await addTag(world, guild, { names: ['ping'], content: 'Look, <user_name>: <user_mention>' });
    const channel = await world.sandbox.channelIn(guild);
    const app = snowflake();
    const token = `tok-${snowflake()}`;
    ok(await send(guild, tag.entry.tag_id, { channel_id: channel, user_mention_id: mentioned, application_id: app, token }, member));
    const answers = await world.sandbox.webhook(app, token);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content: `Look, Grace H.: <@${mentioned}>` });
    expect((answers[0]!.flags ?? 0) & 64).toBe(0);
    // Not posted in the channel as well.
    expect(await lastMessage(channel)).toBeUndefined();
  });

  it('sends a private tag for its owner only (403 for anyone else); a public one for anyone', async () => {
    const guild = await tagsGuild(world);
    const owner = snowflake();
    const someone = snowflake();
    const channel = await world.sandbox.channelIn(guild);
    const secret = await addTag(world, guild, { names: ['secret'], owner_id: owner, visibility: 2, content: 'psst' });
    const open = await addTag(world, guild, { names: ['open'], owner_id: owner, visibility: 1, content: 'hello all' });
    expect(failed(await send(guild, secret.entry.tag_id, { channel_id: channel }, someone), 403, 'ForbiddenError')).toContain('owner');
    expect(await lastMessage(channel)).toBeUndefined();
    ok(await send(guild, secret.entry.tag_id, { channel_id: channel }, owner));
    expect((await lastMessage(channel))?.content).toBe('psst');
    ok(await send(guild, open.entry.tag_id, { channel_id: channel }, someone));
    expect((await lastMessage(channel))?.content).toBe('hello all');
  });

  it('refuses bad input and unknown tags, and a platform failure is a 502', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['t'], content: 'text' });
    const channel = await world.sandbox.channelIn(guild);
    failed(await send(guild, tag.entry.tag_id, {}), 400, 'BadRequestError');
    failed(await send(guild, tag.entry.tag_id, { channel_id: channel, user_mention_id: 'x' }), 400, 'BadRequestError');
    failed(await send(guild, tag.entry.tag_id, { channel_id: channel, token: 'only-a-token' }), 422, 'Unprocessable Entity');
    failed(await send(guild, 'unknown', { channel_id: channel }), 404, 'NotFoundError');
    await world.sandbox.fault({ method: 'POST', path: `/channels/${channel}/messages`, status: 403, code: 50013, message: 'Missing Permissions', times: 1 });
    failed(await send(guild, tag.entry.tag_id, { channel_id: channel }), 502, 'PlatformApiInteractionError');
    await world.sandbox.clearFaults();
  });
});

describe('a sent tag within the platform limits, posted once', () => {
  /** A guild with a member whose nick has `length` characters, a channel of its own, and a tag of 1989 characters plus `<user_name>`. */
  async function longTag(length: number) {
    const guild = await tagsGuild(world);
    const member = snowflake();
    await join(guild, member, { username: 'long', nick: 'N'.repeat(length) });
    const channel = await world.sandbox.channelIn(guild);
    const tag = await addTag(world, guild, { names: ['long'], content: `${'t'.repeat(1989)}<user_name>` });
    return { guild, member, channel, tagId: tag.entry.tag_id as string };
  }

  it('a tag that fills to exactly 2000 characters is posted whole', async () => {
    const { guild, member, channel, tagId } = await longTag(11);
    ok(await send(guild, tagId, { channel_id: channel }, member));
    expect((await lastMessage(channel))?.content).toBe(`${'t'.repeat(1989)}${'N'.repeat(11)}`);
  });

  it('a tag that fills past 2000 characters is a 422 naming the limit, and nothing is posted, in a channel or as an interaction answer', async () => {
    const { guild, member, channel, tagId } = await longTag(12);
    const reason = failed(await send(guild, tagId, { channel_id: channel }, member), 422, 'Unprocessable Entity');
    expect(reason).toContain('content is 2001 characters once filled; at most 2000');
    expect(await lastMessage(channel)).toBeUndefined();

    const app = snowflake();
    const token = `tok-${snowflake()}`;
    failed(await send(guild, tagId, { channel_id: channel, application_id: app, token }, member), 422, 'Unprocessable Entity');
    expect(await world.sandbox.webhook(app, token)).toEqual([]);
    expect(await lastMessage(channel)).toBeUndefined();
  });

  it('a tag the platform stored before answering 502 is posted once', async () => {
    const guild = await tagsGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const tag = await addTag(world, guild, { names: ['once'], content: 'only once' });
    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 502, after_effect: true });
    ok(await send(guild, tag.entry.tag_id, { channel_id: channel }));
    const state = await world.sandbox.state();
    expect(state.channels.find((c) => c.id === channel)!.messages.map((m) => m.content)).toEqual(['only once']);
  });

  it('a tag answering an interaction is not sent again when the platform fails after storing it', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['answer'], content: 'answered once' });
    const app = snowflake();
    const token = `tok-${snowflake()}`;
    await world.sandbox.fault({ method: 'POST', path: `^/webhooks/${app}/`, status: 500, after_effect: true });
    failed(
      await send(guild, tag.entry.tag_id, { channel_id: await world.sandbox.channelIn(guild), application_id: app, token }),
      502,
      'PlatformApiInteractionError',
    );
    const answers = await world.sandbox.webhook(app, token);
    expect(answers.filter((m) => m.content === 'answered once')).toHaveLength(1);
  });
});
