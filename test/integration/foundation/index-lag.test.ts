/**
 * Decisions must not depend on an eventually consistent index. Local mode
 * runs here with its indexes lagging (as DynamoDB's do on AWS), and a panel
 * and a poll are acted on the moment they exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { answer, castVote, createPoll, getPoll, pollGuild, voteBody } from '../polls/helpers.js';

/** Longer than any step below takes, so every index query in a test sees none of its writes. */
const LAG_MS = 20_000;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ indexLagMs: LAG_MS });
});
afterAll(() => service.stop());

const RR = '/modules/reactionroles';

async function reactionRoleGuild(): Promise<string> {
  const guild = snowflake();
  expect((await service.call('POST', `${RR}/enable`, { body: { guild_id: guild } })).status).toBe(200);
  return guild;
}

describe('with lagging indexes', () => {
  it('really lags: a listing served by the index does not see a claim made a moment ago', async () => {
    const guild = await reactionRoleGuild();
    const member = snowflake();
    const panel = (await service.call('POST', `${RR}/panels`, { looseBody: emojiPanelBody(guild, await sandboxOf(service).channelIn(guild)) })).body.data.panel;
    await service.call('POST', `${RR}/panel/${panel.panel_id}/entries`, {
      body: { guild_id: guild, role_ids: [await sandboxOf(service).roleIn(guild)], emoji_name: '🎉', emoji_id: null, text: null, description: null },
    });
    const claimed = await react(guild, panel, member, '🎉');
    expect(claimed.status, claimed.text).toBe(200);
    // The member's claims are listed through gsi1 (privacy): under the lag the fresh claim is not there yet.
    const counted = await service.call('GET', `${RR}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } });
    expect(counted.status, counted.text).toBe(200);
    expect(counted.body.data.id).toBe(0);
  });

  it('grants the role of a reaction on a panel posted a moment ago', async () => {
    const guild = await reactionRoleGuild();
    const role = await sandboxOf(service).roleIn(guild);
    const member = snowflake();
    const created = await service.call('POST', `${RR}/panels`, { looseBody: emojiPanelBody(guild, await sandboxOf(service).channelIn(guild)) });
    expect(created.status, created.text).toBe(200);
    const panel = created.body.data.panel;
    const entry = await service.call('POST', `${RR}/panel/${panel.panel_id}/entries`, {
      body: { guild_id: guild, role_ids: [role], emoji_name: '🎉', emoji_id: null, text: null, description: null },
    });
    expect(entry.status, entry.text).toBe(200);

    const res = await react(guild, panel, member, '🎉');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.roles_added).toEqual([role]);
    expect(await sandboxOf(service).roles(guild, member)).toEqual([role]);
  });

  it('refuses a second registration of a message registered a moment ago', async () => {
    const guild = await reactionRoleGuild();
    const channel = await sandboxOf(service).channelIn(guild);
    const message = await sandboxOf(service).post(channel, snowflake(), { content: 'Pick a role' });
    const register = { ...emojiPanelBody(guild, channel), is_register: true, register_message_id: message.id, content: null, is_embed: null };
    const both = await Promise.all([0, 1].map(() => service.call('POST', `${RR}/panels`, { looseBody: register })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it('drops the panels of a channel deleted a moment after they were posted', async () => {
    const guild = await reactionRoleGuild();
    const channel = await sandboxOf(service).channelIn(guild);
    for (let i = 0; i < 2; i++) expect((await service.call('POST', `${RR}/panels`, { looseBody: emojiPanelBody(guild, channel) })).status).toBe(200);
    const dropped = await service.call('POST', `${RR}/panel/check-delete`, { body: { guild_id: guild, channel_id: channel, message_id: null } });
    expect(dropped.status, dropped.text).toBe(200);
    expect(dropped.body.data.panels).toHaveLength(2);
  });

  it('counts a vote by message on a poll posted a moment ago, and deletes the poll of a message deleted at once', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { poll_answer_type: 1, answers: [answer('Yes', { emoji_name: '👍' }), answer('No', { emoji_name: '👎' })] });
    const member = snowflake();
    const vote = await castVote(service, member, voteBody(where.guild, where.channel, { interacted_message_id: poll.message_id, emoji_name: '👎' }));
    expect(vote.status, vote.text).toBe(200);
    expect(vote.body.data.vote.votes).toEqual([2]);
    const stored = (await getPoll(service, where.guild, poll.poll_id)).body.data.poll;
    expect(stored.answers.map((a: { vote_count: number }) => a.vote_count)).toEqual([0, 1]);

    const removed = await service.call('DELETE', '/modules/polls/entry/delete-poll-on-message-delete', {
      looseBody: { guild_id: where.guild, channel_id: where.channel, interacted_message_id: poll.message_id },
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await getPoll(service, where.guild, poll.poll_id)).status).toBe(404);
  });
});

function emojiPanelBody(guild: string, channel: string): Record<string, unknown> {
  return {
    guild_id: guild,
    is_register: false,
    channel_id: channel,
    limit_roles_to_one: false,
    supports_remove: true,
    remove_roles_from_users_on_entry_delete: false,
    panel_type: 'emoji',
    keep_counter_at_one: false,
    delete_unrelated_emoji_reactions: false,
    is_embed: false,
    content: 'Pick your roles',
  };
}

function react(guild: string, panel: { channel_id: string; message_id: string }, member: string, emoji: string) {
  return service.call('POST', `${RR}/check`, {
    headers: { 'X-Acting-User-Id': member },
    body: { guild_id: guild, channel_id: panel.channel_id, message_id: panel.message_id, interaction_type: 'reaction_add', emoji_name: emoji, emoji_id: null },
  });
}
