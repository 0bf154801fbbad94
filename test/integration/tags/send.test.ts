/** Sending a tag: its variables, where it goes, who may be mentioned, private tags. */
import { describe, expect, it } from 'vitest';
import { snowflake } from '../../helpers/local.js';
import { addTag, failed, ok, startWorld, tagsGuild } from './helpers.js';

const world = startWorld();

async function join(guild: string, user: string, names: { username?: string; nick?: string | null; global_name?: string | null }) {
  const origin = world.service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}/_sandbox/guilds/${guild}/members/${user}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(names) });
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
