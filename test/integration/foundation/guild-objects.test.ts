/**
 * Behaviour §13: a channel, category, role, message or invite a request names
 * must be the request's guild's. Another guild's (or a DM, or one the
 * platform does not know) is a 422 naming the field, with nothing posted and
 * nothing stored; the guild's own still works. Per module, as the bot or a
 * dashboard would try it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '#test/helpers/local.js';
import { failed, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { pollBody } from '../polls/helpers.js';
import { panelBody } from '../reactionroles/fixture.js';
import { sourcesOf, unique } from '../socials/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const sandbox = () => sandboxOf(service);

/** A new guild with `module` enabled. */
async function enabled(module: string): Promise<string> {
  const guild = snowflake();
  ok(await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } }));
  return guild;
}

/** A channel of some other guild, as the platform knows it. */
const foreignChannel = () => sandbox().channelIn(snowflake());

/** The 422 of behaviour §13 naming `field`; answers its message. */
function refused(res: CallResult, field: string): string {
  const message = failed(res, 422, 'Unprocessable Entity');
  expect(message).toContain(`Field '${field}' names `);
  return message;
}

/** Calls the platform API of the sandbox as the bot would. */
async function platformCall(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.sandboxUrl}${path}`, {
    method,
    headers: { authorization: 'Bot test', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** How many messages a channel holds on the sandbox. */
async function messageCount(channel: string): Promise<number> {
  return (await sandbox().state()).channels.find((c) => c.id === channel)?.messages.length ?? 0;
}

/** Platform requests the service made since the log was cleared, as `METHOD /path`. */
async function platformRequests(): Promise<string[]> {
  return (await sandbox().requests()).map((r) => `${r.method} ${r.path}`);
}

describe('invite tracker', () => {
  it('creates an invite only in a channel of the guild', async () => {
    const guild = await enabled('invite-tracker');
    const [own, other] = [await sandbox().channelIn(guild), await foreignChannel()];
    const body = { guild_id: guild, max_uses: 0, max_age: 0, is_temporary: false };
    expect(refused(await service.call('POST', '/modules/invite-tracker/invites', { body: { ...body, channel_id: other } }), 'body.channel_id')).toContain(
      `channel ${other}, which is not in guild ${guild}`,
    );
    expect((await sandbox().state()).invites.filter((i) => i.channel?.id === other)).toEqual([]);
    const created = ok(await service.call('POST', '/modules/invite-tracker/invites', { body: { ...body, channel_id: own } }));
    expect(created.invite.channel_id).toBe(own);
  });

  it("deletes only the guild's invites; a code the platform does not know stays a 404", async () => {
    const guild = await enabled('invite-tracker');
    const theirs = (await platformCall('POST', `/channels/${await foreignChannel()}/invites`, { max_age: 0 })).body.code as string;
    expect(
      refused(await service.call('DELETE', '/modules/invite-tracker/invites', { body: { guild_id: guild, invite_code: theirs } }), 'body.invite_code'),
    ).toContain(`invite ${theirs}, which is not in guild ${guild}`);
    expect((await platformCall('GET', `/invites/${theirs}`)).status).toBe(200);
    failed(await service.call('DELETE', '/modules/invite-tracker/invites', { body: { guild_id: guild, invite_code: 'noSuchCode1' } }), 404, 'NotFoundError');
    const own = ok(
      await service.call('POST', '/modules/invite-tracker/invites', {
        body: { guild_id: guild, channel_id: await sandbox().channelIn(guild), max_uses: 0, max_age: 0, is_temporary: false },
      }),
    );
    ok(await service.call('DELETE', '/modules/invite-tracker/invites', { body: { guild_id: guild, invite_code: own.invite_code } }));
    expect((await platformCall('GET', `/invites/${own.invite_code}`)).status).toBe(404);
  });
});

describe('socials', () => {
  it("never announces into another guild's channel", async () => {
    const guild = await enabled('socials');
    const feed = await sourcesOf(service).feed(unique('owned'));
    const other = await foreignChannel();
    refused(
      await service.call('POST', '/modules/socials/entries/rss', {
        body: { guild_id: guild, rss_feed: feed, target_channel_id: other, mention_everyone: true },
      }),
      'body.target_channel_id',
    );
    expect(ok(await service.call('GET', '/modules/socials/entries/rss', { query: { guild_id: guild } })).entries).toEqual([]);
    const own = await sandbox().channelIn(guild);
    const entry = ok(
      await service.call('POST', '/modules/socials/entries/rss', { body: { guild_id: guild, rss_feed: feed, target_channel_id: own, mention_everyone: true } }),
    ).entry;
    expect(entry.target_channel_id).toBe(own);
  });

  it("puts a meme only on a message in the guild's channel", async () => {
    const guild = await enabled('socials');
    const other = await foreignChannel();
    const theirs = (await platformCall('POST', `/channels/${other}/messages`, { content: 'their message' })).body.id as string;
    refused(await service.call('POST', '/modules/socials/meme/send', { body: { guild_id: guild, channel_id: other, message_id: theirs } }), 'body.channel_id');
    const own = await sandbox().channelIn(guild);
    // The guild's channel, with the other guild's message: not a message of that channel.
    refused(await service.call('POST', '/modules/socials/meme/send', { body: { guild_id: guild, channel_id: own, message_id: theirs } }), 'body.message_id');
    expect((await sandbox().message(other, theirs))?.content).toBe('their message');

    const mine = (await platformCall('POST', `/channels/${own}/messages`, { content: 'loading a meme' })).body.id as string;
    await sourcesOf(service).meme({ title: 'Owned', url: 'https://example.org/owned.png', postLink: 'https://example.org/post/owned' });
    ok(await service.call('POST', '/modules/socials/meme/send', { body: { guild_id: guild, channel_id: own, message_id: mine } }));
    expect((await sandbox().message(own, mine))?.embeds[0]).toMatchObject({ title: 'Owned' });
  });
});

describe('polls and giveaways', () => {
  it("posts a poll only in the guild's channel", async () => {
    const guild = await enabled('polls');
    const other = await foreignChannel();
    refused(await service.call('POST', '/modules/polls/entries', { looseBody: pollBody({ guild, channel: other, owner: snowflake() }) }), 'body.channel_id');
    expect(await messageCount(other)).toBe(0);
    expect(ok(await service.call('GET', '/modules/polls/entries', { query: { guild_id: guild } })).polls).toEqual([]);
    const own = await sandbox().channelIn(guild);
    const poll = ok(await service.call('POST', '/modules/polls/entries', { looseBody: pollBody({ guild, channel: own, owner: snowflake() }) })).poll;
    expect(await messageCount(own)).toBe(1);
    expect(poll.channel_id).toBe(own);
  });

  it("posts a giveaway only in the guild's channel", async () => {
    const guild = await enabled('giveaways');
    const other = await foreignChannel();
    const body = { guild_id: guild, giveaway_owner_id: snowflake(), prize: 'A mug', winner_count: 1, end_time: '1h' };
    refused(await service.call('POST', '/modules/giveaways/entries', { body: { ...body, channel_id: other } }), 'body.channel_id');
    expect(await messageCount(other)).toBe(0);
    expect(ok(await service.call('GET', '/modules/giveaways/entries', { query: { guild_id: guild } })).entries).toEqual([]);
    const own = await sandbox().channelIn(guild);
    ok(await service.call('POST', '/modules/giveaways/entries', { body: { ...body, channel_id: own } }));
    expect(await messageCount(own)).toBe(1);
  });
});

describe('reaction roles', () => {
  it("registers only a message of the guild's channel, and grants only the guild's roles", async () => {
    const guild = await enabled('reactionroles');
    const own = await sandbox().channelIn(guild);
    const theirs = (await platformCall('POST', `/channels/${await foreignChannel()}/messages`, { content: 'not yours' })).body.id as string;
    const register = panelBody(guild, own, { is_register: true, register_message_id: theirs, content: null, is_embed: null });
    refused(await service.call('POST', '/modules/reactionroles/panels', { looseBody: register }), 'body.register_message_id');
    expect(ok(await service.call('GET', '/modules/reactionroles/panels', { query: { guild_id: guild } })).panels).toEqual([]);

    const panel = ok(await service.call('POST', '/modules/reactionroles/panels', { looseBody: panelBody(guild, own) })).panel;
    const [mine, foreign] = [await sandbox().roleIn(guild), await sandbox().roleIn(snowflake())];
    const entry = { guild_id: guild, emoji_name: '😀', emoji_id: null, text: null, description: null };
    const message = refused(
      await service.call('POST', `/modules/reactionroles/panel/${panel.panel_id}/entries`, { body: { ...entry, role_ids: [mine, foreign] } }),
      'body.role_ids[1]',
    );
    expect(message).toContain(`role ${foreign}, which is not a role of guild ${guild}`);
    expect(ok(await service.call('GET', `/modules/reactionroles/panel/${panel.panel_id}/entries`, { query: { guild_id: guild } })).entries).toEqual([]);
    expect(
      ok(await service.call('POST', `/modules/reactionroles/panel/${panel.panel_id}/entries`, { body: { ...entry, role_ids: [mine] } })).entry.role_ids,
    ).toEqual([mine]);
  });
});

describe('channel and role settings', () => {
  const channelSettings: [module: string, field: string][] = [
    ['welcoming', 'welcome_messages_channel'],
    ['welcoming', 'leave_messages_channel'],
    ['verifier', 'verifier_channel'],
    ['serverstats', 'starboard_channel_id'],
    ['invite-tracker', 'join_messages_channel'],
    ['invite-tracker', 'leave_messages_channel'],
  ];

  it.each(channelSettings)('%s: %s takes only a channel of the guild, and stores nothing else', async (module, field) => {
    const guild = await enabled(module);
    const settings = `/modules/${module}/settings`;
    const before = ok(await service.call('GET', settings, { query: { guild_id: guild } })).settings;
    refused(await service.call('PUT', settings, { body: { guild_id: guild, [field]: await foreignChannel() } }), `body.${field}`);
    expect(ok(await service.call('GET', settings, { query: { guild_id: guild } })).settings).toEqual(before);
    const own = await sandbox().channelIn(guild);
    expect(ok(await service.call('PUT', settings, { body: { guild_id: guild, [field]: own } })).settings[field]).toBe(own);
  });

  it('refuses a DM channel, a channel the platform does not know and one it hides from the bot', async () => {
    const guild = await enabled('welcoming');
    const dm = (await platformCall('POST', '/users/@me/channels', { recipient_id: snowflake() })).body.id as string;
    expect(
      refused(
        await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: guild, welcome_messages_channel: dm } }),
        'body.welcome_messages_channel',
      ),
    ).toContain('which is not in guild');
    const unknown = snowflake();
    expect(
      refused(
        await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: guild, welcome_messages_channel: unknown } }),
        'body.welcome_messages_channel',
      ),
    ).toContain(`channel ${unknown}, which the platform does not know`);
    const hidden = await foreignChannel();
    await sandbox().fault({ method: 'GET', path: `^/channels/${hidden}$`, status: 403, code: 50001, message: 'Missing Access', times: 1 });
    expect(
      refused(
        await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: guild, welcome_messages_channel: hidden } }),
        'body.welcome_messages_channel',
      ),
    ).toContain('which the bot cannot see');
    expect(ok(await service.call('GET', '/modules/welcoming/settings', { query: { guild_id: guild } })).settings.welcome_messages_channel).toBeNull();
  });

  it("takes only the guild's roles as autoroles, verified roles, timed roles and counter roles", async () => {
    const welcoming = await enabled('welcoming');
    const [mine, foreign] = [await sandbox().roleIn(welcoming), await sandbox().roleIn(snowflake())];
    refused(
      await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: welcoming, autorole_role_ids: [mine, foreign] } }),
      'body.autorole_role_ids[1]',
    );
    expect(ok(await service.call('GET', '/modules/welcoming/settings', { query: { guild_id: welcoming } })).settings.autorole_role_ids).toBe('');
    refused(await service.call('POST', '/modules/welcoming/timedroles', { body: { guild_id: welcoming, role_id: foreign, add_after: 60 } }), 'body.role_id');
    expect(ok(await service.call('GET', '/modules/welcoming/timedroles', { query: { guild_id: welcoming } })).timedroles).toEqual([]);
    expect(
      ok(await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: welcoming, autorole_role_ids: [mine] } })).settings.autorole_role_ids,
    ).toBe(mine);

    const verifier = await enabled('verifier');
    refused(
      await service.call('PUT', '/modules/verifier/settings', { body: { guild_id: verifier, verifier_verified_role_ids: [foreign] } }),
      'body.verifier_verified_role_ids[0]',
    );
    expect(ok(await service.call('GET', '/modules/verifier/settings', { query: { guild_id: verifier } })).settings.verifier_verified_role_ids).toBe('');

    const stats = await enabled('serverstats');
    refused(
      await service.call('POST', '/modules/serverstats/counters', {
        body: { guild_id: stats, counter_type: 7, new_format: null, new_role_id: foreign, new_goal: null },
      }),
      'body.new_role_id',
    );
    expect(ok(await service.call('GET', '/modules/serverstats/counters', { query: { guild_id: stats } })).counters).toEqual([]);
  });

  it("takes only a category of the guild as the counters' category", async () => {
    const guild = await enabled('serverstats');
    const category = async (owner: string) => {
      const id = snowflake();
      const res = await fetch(`${sandbox().origin}/_sandbox/channels/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ guild_id: owner, type: 4, name: 'Stats' }),
      });
      expect(res.status).toBe(200);
      return id;
    };
    const put = async (value: string) => service.call('PUT', '/modules/serverstats/settings', { body: { guild_id: guild, counters_category_id: value } });
    refused(await put(await category(snowflake())), 'body.counters_category_id');
    expect(refused(await put(await sandbox().channelIn(guild)), 'body.counters_category_id')).toContain('not a category');
    const own = await category(guild);
    expect(ok(await put(own)).settings.counters_category_id).toBe(own);
  });
});

describe('tags', () => {
  it("sends a tag only into the guild's channel", async () => {
    const guild = await enabled('tags');
    const tag = ok(
      await service.call('POST', '/modules/tags/entries', {
        body: { guild_id: guild, owner_id: snowflake(), content: 'Hello', visibility: 1, names: ['hello'] },
      }),
    ).entry;
    const other = await foreignChannel();
    refused(await service.call('POST', `/modules/tags/entries/${tag.tag_id}/send`, { body: { guild_id: guild, channel_id: other } }), 'body.channel_id');
    expect(await messageCount(other)).toBe(0);
    const own = await sandbox().channelIn(guild);
    ok(await service.call('POST', `/modules/tags/entries/${tag.tag_id}/send`, { body: { guild_id: guild, channel_id: own } }));
    expect(await messageCount(own)).toBe(1);
  });
});

describe('whoever asks, and what the check costs', () => {
  it("refuses a guild key naming another guild's channel, as it refuses the service token", async () => {
    const guild = await enabled('welcoming');
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret as string;
    refused(
      await service.call('PUT', '/modules/welcoming/settings', { token: key, body: { guild_id: guild, welcome_messages_channel: await foreignChannel() } }),
      'body.welcome_messages_channel',
    );
    const own = await sandbox().channelIn(guild);
    expect(
      ok(await service.call('PUT', '/modules/welcoming/settings', { token: key, body: { guild_id: guild, welcome_messages_channel: own } })).settings
        .welcome_messages_channel,
    ).toBe(own);
  });

  it('answers 502 when the platform fails the check, and stores nothing', async () => {
    const guild = await enabled('welcoming');
    const own = await sandbox().channelIn(guild);
    await sandbox().fault({ method: 'GET', path: `^/channels/${own}$`, status: 500, times: 10 });
    try {
      failed(
        await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: guild, welcome_messages_channel: own } }),
        502,
        'PlatformApiInteractionError',
      );
    } finally {
      await sandbox().clearFaults();
    }
    expect(ok(await service.call('GET', '/modules/welcoming/settings', { query: { guild_id: guild } })).settings.welcome_messages_channel).toBeNull();
  });

  it('reads a channel once, then knows it; reads the roles once for every role of a request; never keeps a refusal', async () => {
    const guild = await enabled('welcoming');
    const own = await sandbox().channelIn(guild);
    const put = (body: Record<string, unknown>) => service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: guild, ...body } });
    const reads = async (body: Record<string, unknown>) => {
      await sandbox().clearRequests();
      ok(await put(body));
      return (await platformRequests()).filter((r) => r.startsWith('GET '));
    };
    expect(await reads({ welcome_messages_channel: own, leave_messages_channel: own })).toEqual([`GET /channels/${own}`]);
    expect(await reads({ welcome_messages_channel: own })).toEqual([]);
    const roles = [await sandbox().roleIn(guild), await sandbox().roleIn(guild), await sandbox().roleIn(guild)];
    expect(await reads({ autorole_role_ids: roles })).toEqual([`GET /guilds/${guild}/roles`]);

    // A refused channel is read again next time: once it is the guild's, it is taken.
    const later = snowflake();
    refused(await put({ leave_messages_channel: later }), 'body.leave_messages_channel');
    await sandbox().channelIn(guild, later);
    expect(ok(await put({ leave_messages_channel: later })).settings.leave_messages_channel).toBe(later);
  });
});
