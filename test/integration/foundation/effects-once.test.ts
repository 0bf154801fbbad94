/**
 * Each effect once on the platform (behaviour §13): for every kind of message
 * the service posts, the platform stores the message and then answers 500.
 * The client resends with the same nonce, the platform answers the message
 * it made first, and the channel shows exactly one message. An interaction
 * callback that failed after its effect is not sent again.
 * (Welcome messages and tags: test/integration/welcoming/checks.test.ts and
 * test/integration/tags/send.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endGiveaway } from '#functions/giveaways/lifecycle.js';
import { pollSource } from '#functions/socials/polling.js';
import { ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { type Message, sandboxOf } from '#test/helpers/sandbox.js';
import { pollBody } from '../polls/helpers.js';
import { panelBody } from '../reactionroles/fixture.js';
import { statsGuild } from '../serverstats/helpers.js';
import { announced, socialGuild, sourcesOf, unique, watch } from '../socials/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const sandbox = () => sandboxOf(service);

/** A guild with `module` enabled and a channel of its own on the sandbox. */
async function guildWith(module: string): Promise<{ guild: string; channel: string }> {
  const guild = snowflake();
  ok(await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } }));
  return { guild, channel: await sandbox().channelIn(guild) };
}

/** The next message create in `channel` is stored, then answered with a 500. */
const failAfterPosting = (channel: string) => sandbox().fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 500, after_effect: true });

/** The messages in a channel, oldest first. */
async function messagesIn(channel: string): Promise<Message[]> {
  const state = await sandbox().state();
  return (state.channels.find((c) => c.id === channel)?.messages ?? []) as Message[];
}

/** The channel's one message, after checking that the failure after the effect was answered (logged as a 500). */
async function onlyMessage(channel: string): Promise<Message> {
  const messages = await messagesIn(channel);
  expect(messages).toHaveLength(1);
  const statuses = (await sandbox().requests()).filter((r) => r.method === 'POST' && r.path === `/channels/${channel}/messages`).map((r) => r.status);
  expect(statuses).toEqual([500, 200]);
  return messages[0]!;
}

describe('one message after the platform fails after storing it', () => {
  it('a service poll and a platform-native poll', async () => {
    const { guild, channel } = await guildWith('polls');
    await failAfterPosting(channel);
    const poll = ok(await service.call('POST', '/modules/polls/entries', { looseBody: pollBody({ guild, channel, owner: snowflake() }) })).poll;
    expect((await onlyMessage(channel)).id).toBe(poll.message_id);

    const native = await sandbox().channelIn(guild);
    await failAfterPosting(native);
    const nativePoll = ok(
      await service.call('POST', '/modules/polls/entries', { looseBody: pollBody({ guild, channel: native, owner: snowflake() }, { poll_type: 1 }) }),
    ).poll;
    expect((await onlyMessage(native)).id).toBe(nativePoll.message_id);
  });

  it("a giveaway's message, and its end's announcement however often the end runs", async () => {
    const { guild, channel } = await guildWith('giveaways');
    await failAfterPosting(channel);
    const body = { guild_id: guild, channel_id: channel, giveaway_owner_id: snowflake(), prize: 'A mug', winner_count: 1, end_time: '1h' };
    const g = ok(await service.call('POST', '/modules/giveaways/entries', { body })).entry;
    expect((await onlyMessage(channel)).id).toBe(g.message_id);

    ok(
      await service.call('POST', `/modules/giveaways/entries/${g.entry_id}/enter`, { body: { guild_id: guild }, headers: { 'x-acting-user-id': snowflake() } }),
    );
    await failAfterPosting(channel);
    await endGiveaway(guild, g.entry_id);
    await endGiveaway(guild, g.entry_id);
    const announcements = (await messagesIn(channel)).filter((m) => m.id !== g.message_id);
    expect(announcements).toHaveLength(1);
    expect(announcements[0]!.content).toContain('You won **A mug**');
  });

  it("a verifier's prompt; and its answer to the interaction is not sent twice", async () => {
    const { guild, channel } = await guildWith('verifier');
    const role = await sandbox().roleIn(guild);
    ok(await service.call('PUT', '/modules/verifier/settings', { body: { guild_id: guild, verifier_channel: channel, verifier_verified_role_ids: [role] } }));
    const member = snowflake();
    await failAfterPosting(channel);
    const created = ok(
      await service.call('POST', '/modules/verifier/event/create-verification', {
        body: { guild_id: guild, requester: member },
        headers: { 'x-acting-user-id': member },
      }),
    );
    const prompt = await onlyMessage(channel);
    expect(prompt.components![0]!.components[0]!.custom_id).toBe(`verifier:click:${created.verifier_id}`);

    const interaction = snowflake();
    await sandbox().fault({ method: 'POST', path: `^/interactions/${interaction}/`, status: 500, after_effect: true });
    const answered = await service.call('POST', '/modules/verifier/event/handle-verification', {
      body: { verifier_id: created.verifier_id, interaction_id: interaction, token: 'tok-once', interaction_type: 'ComponentInteraction' },
      headers: { 'x-acting-user-id': member },
    });
    expect(answered.status).toBe(502);
    const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
    const callbacks = (await (await fetch(`${origin}/_sandbox/interactions`)).json()) as { interaction_id: string }[];
    expect(callbacks.filter((c) => c.interaction_id === interaction)).toHaveLength(1);
    expect(await sandbox().roles(guild, member)).toEqual([role]);
  });

  it("a reaction-role panel's message", async () => {
    const { guild, channel } = await guildWith('reactionroles');
    await failAfterPosting(channel);
    const panel = ok(await service.call('POST', '/modules/reactionroles/panels', { looseBody: panelBody(guild, channel) })).panel;
    expect((await onlyMessage(channel)).id).toBe(panel.message_id);
  });

  it('a socials announcement', async () => {
    const guild = await socialGuild(service);
    const channel = await sandbox().channelIn(guild);
    const sources = sourcesOf(service);
    const name = unique('once');
    const url = await sources.feed(name);
    ok(await watch(service, guild, 'rss', url, channel));
    await sources.entry(name, { title: 'News', guid: 'n1', link: 'https://example.org/news' });
    await failAfterPosting(channel);
    await pollSource('rss', url);
    await announced();
    expect((await onlyMessage(channel)).content).toContain('**News**');
  });

  it("the invite tracker's join message", async () => {
    const { guild, channel } = await guildWith('invite-tracker');
    const messages = await sandbox().channelIn(guild);
    ok(
      await service.call('PUT', '/modules/invite-tracker/settings', {
        body: { guild_id: guild, join_messages_enabled: true, join_messages_channel: messages, join_message_content: 'Welcome <user_mention>!' },
      }),
    );
    const invite = ok(
      await service.call('POST', '/modules/invite-tracker/invites', {
        body: { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false },
        headers: { 'x-acting-user-id': snowflake() },
      }),
    );
    const member = snowflake();
    const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
    const joined = await fetch(`${origin}/_sandbox/guilds/${guild}/members/${member}/join-via-invite/${invite.invite_code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(joined.ok).toBe(true);
    await failAfterPosting(messages);
    ok(await service.call('POST', '/modules/invite-tracker/events/join/check-invite', { body: { guild_id: guild }, headers: { 'x-acting-user-id': member } }));
    expect((await onlyMessage(messages)).content).toBe(`Welcome <@${member}>!`);
  });

  it('a starboard post', async () => {
    const guild = await statsGuild(service);
    const board = ok(
      await service.call('PUT', '/modules/serverstats/settings', { body: { guild_id: guild, starboard_channel_id: 'create', starboard_enabled: true } }),
    ).settings.starboard_channel_id;
    const channel = await sandbox().channelIn(guild);
    const message = await sandbox().post(channel, snowflake(), { content: 'Star me' });
    for (let i = 0; i < 3; i++) await sandbox().react(channel, message.id, '⭐', snowflake());
    await failAfterPosting(board);
    ok(await service.call('POST', '/modules/serverstats/starboard/check/add', { body: { guild_id: guild, channel_id: channel, message_id: message.id } }));
    expect((await onlyMessage(board)).embeds[0]!.description).toBe('Star me');
  });
});
