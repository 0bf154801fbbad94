/** The invite tracker: attribution of every join as honest as the counts allow, invites on the platform, messages, privacy. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '#shared/platform/types.js';
import { errorOf, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { queryAll } from '#test/helpers/table.js';
import { membersOf } from '../welcoming/members-sandbox.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const IT = '/modules/invite-tracker';

async function control(method: string, path: string, body?: unknown): Promise<any> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A guild with the module on and a channel the sandbox knows is in it. */
async function trackerGuild(settings: Record<string, unknown> = {}, guild = snowflake()): Promise<{ guild: string; channel: string }> {
  const channel = await sandboxOf(service).channelIn(guild);
  ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } }));
  if (Object.keys(settings).length) ok(await service.call('PUT', `${IT}/settings`, { body: { guild_id: guild, ...settings } }));
  return { guild, channel };
}

const createInvite = async (guild: string, channel: string, owner: string | null, extra: Record<string, unknown> = {}) =>
  ok(
    await service.call('POST', `${IT}/invites`, {
      body: { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false, ...extra },
      headers: owner ? { 'x-acting-user-id': owner } : {},
    }),
  );
const joinVia = (guild: string, member: string, code: string) => control('POST', `/guilds/${guild}/members/${member}/join-via-invite/${code}`, {});
const check = (guild: string, member: string, which: 'join' | 'leave' = 'join') =>
  service.call('POST', `${IT}/events/${which}/check-invite`, { body: { guild_id: guild }, headers: { 'x-acting-user-id': member } });
const usesOf = async (guild: string, inviter: string) =>
  ok(await service.call('GET', `${IT}/stats/uses`, { query: { guild_id: guild, inviter_id: inviter } })).stats_uses;
const allUses = async (guild: string) => ok(await service.call('POST', `${IT}/disable`, { body: { guild_id: guild } })).stats_uses;

describe('attribution', () => {
  it('attributes a join through one invite exactly to its owner, right after the invite was made', async () => {
    const { guild, channel } = await trackerGuild();
    const owner = snowflake();
    const created = await createInvite(guild, channel, owner);
    expect(created.invite_url).toBe(`https://discord.gg/${created.invite_code}`);
    expect(created.invite).toMatchObject({ guild_id: guild, invite_id: created.invite_code, channel_id: channel, current_uses: 0, owner_id: owner });
    const member = snowflake();
    await joinVia(guild, member, created.invite_code);
    expect(ok(await check(guild, member)).message).toContain('exact');
    const [use] = await usesOf(guild, owner);
    expect(use).toMatchObject({
      guild_id: guild,
      invite_id: created.invite_code,
      member_id: member,
      inviter_id: owner,
      attribution: 'exact',
      has_left: false,
      counted: true,
    });
    expect(ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites[0].current_uses).toBe(1);
  });

  it('gives N joins through one invite checked at once N exact attributions, and never more attributions than increments', async () => {
    const { guild, channel } = await trackerGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const members = Array.from({ length: 6 }, snowflake);
    for (const m of members) await joinVia(guild, m, invite_code);
    // Two more checks than joins: the extra ones find no increment left.
    const results = await Promise.all([...members, snowflake(), snowflake()].map((m) => check(guild, m)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await usesOf(guild, owner)).length).toBe(6);
    const uses = await allUses(guild);
    expect(uses.filter((u: { attribution: string }) => u.attribution === 'exact')).toHaveLength(6);
    expect(uses.filter((u: { attribution: string }) => u.attribution === 'unknown')).toHaveLength(2);
  });

  it('attributes 20 joins through 3 invites checked at once: every increment claimed once, exact only where one invite was left', async () => {
    const { guild, channel } = await trackerGuild();
    const owners = [snowflake(), snowflake(), snowflake()];
    const invites = [];
    for (const owner of owners) invites.push((await createInvite(guild, channel, owner)).invite_code);
    const members = Array.from({ length: 20 }, snowflake);
    for (const [i, m] of members.entries()) await joinVia(guild, m, invites[i % 3]!);
    const results = await Promise.all(members.map((m) => check(guild, m)));
    expect(results.filter((r) => r.status !== 200).map((r) => r.text)).toEqual([]);
    const uses = await allUses(guild);
    expect(uses).toHaveLength(20);
    expect(uses.every((u: { attribution: string }) => u.attribution === 'exact' || u.attribution === 'ambiguous')).toBe(true);
    const recorded = ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } })).invites as { invite_id: string; current_uses: number }[];
    // Each invite's uses were claimed exactly as often as they rose: 7, 7 and 6.
    expect(recorded.map((i) => i.current_uses).sort()).toEqual([6, 7, 7]);
    for (const use of uses.filter((u: { attribution: string }) => u.attribution === 'exact')) expect(owners).toContain(use.inviter_id);
  });

  it('is ambiguous when several invites went up, naming no inviter', async () => {
    const { guild, channel } = await trackerGuild();
    const [a, b] = [await createInvite(guild, channel, snowflake()), await createInvite(guild, channel, snowflake())];
    const [m1, m2] = [snowflake(), snowflake()];
    await joinVia(guild, m1, a.invite_code);
    await joinVia(guild, m2, b.invite_code);
    const [r1, r2] = await Promise.all([check(guild, m1), check(guild, m2)]);
    expect([ok(r1).message, ok(r2).message].some((m) => m.includes('ambiguous'))).toBe(true);
    const uses = await allUses(guild);
    expect(uses).toHaveLength(2);
    for (const use of uses.filter((u: { attribution: string }) => u.attribution === 'ambiguous')) expect(use.inviter_id).toBeNull();
  });

  it('attributes a join through a single-use invite that disappeared on its use, within 60 seconds', async () => {
    const { guild, channel } = await trackerGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner, { max_uses: 1 });
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    ok(await service.call('POST', `${IT}/events/invite/delete`, { body: { guild_id: guild, invite_code } }));
    expect(ok(await check(guild, member)).message).toContain('exact');
    expect((await usesOf(guild, owner))[0]).toMatchObject({ invite_id: invite_code, attribution: 'exact' });
  });

  it('says vanity for a join through the vanity URL, and unknown when nothing went up', async () => {
    const { guild, channel } = await trackerGuild();
    await control('PUT', `/guilds/${guild}/vanity`, { code: 'cool-guild' });
    await createInvite(guild, channel, snowflake());
    const first = snowflake();
    // The first check sees the vanity URL for the first time: its uses so far are the baseline.
    expect(ok(await check(guild, first)).message).toContain('unknown');
    const member = snowflake();
    await control('POST', `/guilds/${guild}/members/${member}/join-via-vanity`, {});
    expect(ok(await check(guild, member)).message).toContain('vanity');
    expect(ok(await check(guild, snowflake())).message).toContain('unknown');
  });

  it('reads no vanity URL for a join an invite explains, and still says vanity for one through it in a guild with invites', async () => {
    const { guild, channel } = await trackerGuild();
    await control('PUT', `/guilds/${guild}/vanity`, { code: 'neat-guild' });
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const platformCalls = async () => (await sandboxOf(service).requests()).filter((r) => r.path.includes(guild)).map((r) => `${r.method} ${r.path}`);
    const before = (await platformCalls()).length;
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    expect(ok(await check(guild, member)).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    expect((await platformCalls()).slice(before).sort()).toEqual([`GET /guilds/${guild}/invites`, `GET /guilds/${guild}/members/${member}`]);
    // No invite went up: the vanity URL is read, first as the baseline, then its increment claimed.
    expect(ok(await check(guild, snowflake())).message).toContain('unknown');
    const viaVanity = snowflake();
    await control('POST', `/guilds/${guild}/members/${viaVanity}/join-via-vanity`, {});
    expect(ok(await check(guild, viaVanity)).message).toContain('vanity');
    expect((await platformCalls()).filter((c) => c.endsWith('/vanity-url'))).toHaveLength(2);
    expect(await usesOf(guild, owner)).toEqual([expect.objectContaining({ member_id: member, attribution: 'exact' })]);
  });

  it("records invites made on the platform from its own list, and does not count a join through one's own invite", async () => {
    const { guild, channel } = await trackerGuild();
    const owner = snowflake();
    const res = await fetch(`${service.sandboxUrl}/channels/${channel}/invites`, {
      method: 'POST',
      headers: { authorization: 'Bot x', 'content-type': 'application/json' },
      body: '{}',
    });
    const platformInvite = (await res.json()) as { code: string; inviter: { id: string } };
    expect(
      ok(await service.call('POST', `${IT}/events/invite/create`, { body: { guild_id: guild, invite_code: platformInvite.code, channel_id: channel } }))
        .message,
    ).toContain('tracked');
    expect((await service.call('POST', `${IT}/events/invite/create`, { body: { guild_id: guild, invite_code: 'nope', channel_id: channel } })).status).toBe(
      404,
    );
    const invites = ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites;
    expect(invites[0]).toMatchObject({ invite_id: platformInvite.code, owner_id: platformInvite.inviter.id });

    const own = await createInvite(guild, channel, owner);
    await joinVia(guild, owner, own.invite_code);
    expect(ok(await check(guild, owner)).message).toContain('not counted');
    expect(await usesOf(guild, owner)).toEqual([]);
  });
});

describe('messages, invites and privacy', () => {
  it('posts join and leave messages with the inviter variables and marks the leave', async () => {
    const guild = snowflake();
    const messages = await sandboxOf(service).channelIn(guild);
    const { channel } = await trackerGuild(
      {
        join_messages_enabled: true,
        join_messages_channel: messages,
        join_message_content: 'Welcome <user_mention>! Invited by <inviter_mention> (<current_invite_count> invites) with <invite_code>. <unknown>',
        leave_messages_enabled: true,
        leave_messages_channel: messages,
        leave_message_content: '<user_id> left; <inviter_id> lost one.',
      },
      guild,
    );
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    ok(await check(guild, member));
    await control('POST', `/guilds/${guild}/members/${member}/leave`, {});
    ok(await check(guild, member, 'leave'));
    const posted = [...(await membersOf(service).api<Message[]>(`/channels/${messages}/messages`)).body].reverse().map((m) => m.content);
    expect(posted).toEqual([`Welcome <@${member}>! Invited by <@${owner}> (1 invites) with ${invite_code}. <unknown>`, `${member} left; ${owner} lost one.`]);
    expect((await usesOf(guild, owner))[0].has_left).toBe(true);
    const bad = await service.call('PUT', `${IT}/settings`, { body: { guild_id: guild, join_message_is_embed: true } });
    expect(bad.status).toBe(422);
    expect(errorOf(bad).message).toContain('join_message_content');
  });

  it('deletes invites on the platform, and answers 404 for an unknown one', async () => {
    const { guild, channel } = await trackerGuild();
    const { invite_code } = await createInvite(guild, channel, null);
    ok(await service.call('DELETE', `${IT}/invites`, { body: { guild_id: guild, invite_code } }));
    expect((await fetch(`${service.sandboxUrl}/invites/${invite_code}`, { headers: { authorization: 'Bot x' } })).status).toBe(404);
    expect((await service.call('DELETE', `${IT}/invites`, { body: { guild_id: guild, invite_code } })).status).toBe(404);
    expect(
      (await service.call('POST', `${IT}/invites`, { body: { guild_id: guild, channel_id: channel, max_uses: 101, max_age: 0, is_temporary: false } })).status,
    ).toBe(422);
    expect(
      (await service.call('POST', `${IT}/invites`, { body: { guild_id: guild, channel_id: channel, max_uses: 1, max_age: 604801, is_temporary: false } }))
        .status,
    ).toBe(422);
  });

  it('counts and removes the uses where a member joined or invited, and their ownership', async () => {
    const { guild, channel } = await trackerGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    ok(await check(guild, member));
    const query = { guild_id: guild, privacy_member_id: owner };
    expect(ok(await service.call('GET', `${IT}/privacy/get-user-entries`, { query })).id).toBe(2);
    ok(await service.call('DELETE', `${IT}/privacy/delete-user-entries`, { body: query }));
    expect(ok(await service.call('GET', `${IT}/privacy/get-user-entries`, { query })).id).toBe(0);
    expect(ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites[0].owner_id).toBeNull();
  });

  it('keeps its defaults, its guild and its module state, and deletes everything with its settings', async () => {
    const { guild, channel } = await trackerGuild();
    expect(ok(await service.call('GET', `${IT}/settings`, { query: { guild_id: guild } })).settings).toMatchObject({
      prevent_own_invite_code: true,
      join_messages_enabled: false,
      join_messages_channel: null,
    });
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    expect(
      (await service.call('POST', `${IT}/events/join/check-invite`, { token: key, body: { guild_id: guild }, headers: { 'x-acting-user-id': snowflake() } }))
        .status,
    ).toBe(403);
    expect((await service.call('GET', `${IT}/invites`, { token: key, query: { guild_id: snowflake() } })).status).toBe(403);
    expect((await service.call('POST', `${IT}/events/join/check-invite`, { body: { guild_id: guild } })).status).toBe(400);
    const { invite_code } = await createInvite(guild, channel, snowflake());
    const members = [snowflake(), snowflake()];
    for (const member of members) {
      await joinVia(guild, member, invite_code);
      ok(await check(guild, member));
    }
    const uses = await allUses(guild);
    expect(uses).toHaveLength(2);
    expect((await check(guild, snowflake())).status).toBe(409);
    const deleted = ok(await service.call('DELETE', `${IT}/settings`, { body: { guild_id: guild } }));
    expect(deleted.invites.map((i: { invite_id: string }) => i.invite_id)).toEqual([invite_code]);
    expect(deleted.stats_uses).toEqual(uses);
    expect(ok(await service.call('GET', `${IT}/status`, { query: { guild_id: guild } })).status).toBe(false);
    ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } }));
    expect(ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites).toEqual([]);
    expect(ok(await check(guild, members[0]!, 'leave')).message).toMatch(/no join of theirs is recorded/);
    expect(await allUses(guild)).toEqual([]);
  });
});

describe('conformance (contract 11 and 12)', () => {
  /** A guild with the module on, set as given, and a channel the sandbox knows is the guild's. */
  async function ownGuild(settings: (channel: string) => Record<string, unknown> = () => ({})): Promise<{ guild: string; channel: string }> {
    const guild = snowflake();
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } }));
    const given = settings(channel);
    if (Object.keys(given).length) ok(await service.call('PUT', `${IT}/settings`, { body: { guild_id: guild, ...given } }));
    return { guild, channel };
  }
  const postedIn = async (channel: string) => (await membersOf(service).api<Message[]>(`/channels/${channel}/messages`)).body;

  it('attributes a join through a single-use invite gone from the list before its delete event came, exactly to its owner', async () => {
    const { guild, channel } = await ownGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner, { max_uses: 1 });
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    // The join check comes first, as on the platform; the delete event after it.
    expect(ok(await check(guild, member)).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    ok(await service.call('POST', `${IT}/events/invite/delete`, { body: { guild_id: guild, invite_code } }));
    expect(await usesOf(guild, owner)).toEqual([
      expect.objectContaining({ invite_id: invite_code, member_id: member, inviter_id: owner, attribution: 'exact', counted: true }),
    ]);
    // Its one use is claimed: the next join is not put on it.
    expect(ok(await check(guild, snowflake())).message).toContain('unknown');
  });

  it('attributes a join whose message could not be posted once, to the right inviter, when the check is tried again, and posts once', async () => {
    const { guild, channel } = await ownGuild((channel) => ({
      join_messages_enabled: true,
      join_messages_channel: channel,
      join_message_content: '<user_mention> was invited by <inviter_mention> with <invite_code>.',
    }));
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 502, times: 3 });
    const failed = await check(guild, member);
    expect(failed.status).toBe(502);
    expect(await postedIn(channel)).toEqual([]);
    const retried = ok(await check(guild, member));
    expect(retried.message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    expect((await postedIn(channel)).map((m) => m.content)).toEqual([`<@${member}> was invited by <@${owner}> with ${invite_code}.`]);
    // Delivered once more after it went through: nothing new.
    expect(ok(await check(guild, member)).message).toContain(`invited by ${owner}`);
    expect(await postedIn(channel)).toHaveLength(1);
    expect(await usesOf(guild, owner)).toEqual([expect.objectContaining({ member_id: member, inviter_id: owner, attribution: 'exact' })]);
    expect(ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites[0].current_uses).toBe(1);
  });

  it('attributes one join delivered twice at once once, and posts once', async () => {
    const { guild, channel } = await ownGuild((channel) => ({
      join_messages_enabled: true,
      join_messages_channel: channel,
      join_message_content: '<user_mention> by <inviter_mention>',
    }));
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    const answers = await Promise.all([check(guild, member), check(guild, member)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    for (const answer of answers) expect(ok(answer).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    expect(await allUses(guild)).toEqual([expect.objectContaining({ member_id: member, inviter_id: owner, attribution: 'exact' })]);
    expect((await postedIn(channel)).map((m) => m.content)).toEqual([`<@${member}> by <@${owner}>`]);
  });

  const joinMessages = (channel: string) => ({
    join_messages_enabled: true,
    join_messages_channel: channel,
    join_message_content: '<user_mention> by <inviter_mention> (<current_invite_count>)',
  });
  const leave = (guild: string, member: string) => control('POST', `/guilds/${guild}/members/${member}/leave`, {});
  const currentUses = async (guild: string) =>
    ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites.map((i: { current_uses: number }) => i.current_uses);

  it('counts a member who left unreported and joined again at once as a second join: two uses, two join messages (contract 16)', async () => {
    const { guild, channel } = await ownGuild(joinMessages);
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    expect(ok(await check(guild, member)).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    // The member leaves and nothing reports it; they come back through the same invite straight away.
    await leave(guild, member);
    await joinVia(guild, member, invite_code);
    expect(ok(await check(guild, member)).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    const uses = await usesOf(guild, owner);
    expect(uses.map((u: { member_id: string; attribution: string; has_left: boolean }) => [u.member_id, u.attribution, u.has_left])).toEqual([
      [member, 'exact', false],
      // The join before ended, though its leave was never reported.
      [member, 'exact', true],
    ]);
    expect(await currentUses(guild)).toEqual([2]);
    expect((await postedIn(channel)).map((m) => m.content).reverse()).toEqual([`<@${member}> by <@${owner}> (1)`, `<@${member}> by <@${owner}> (1)`]);
  });

  it("finds every join of a member who joined again: the latest through their pointer, the earlier indexed by member in the rejoin's transaction", async () => {
    const { guild, channel } = await trackerGuild();
    const [first, second] = [snowflake(), snowflake()];
    const { invite_code: firstCode } = await createInvite(guild, channel, first);
    const member = snowflake();
    await joinVia(guild, member, firstCode);
    ok(await check(guild, member));
    const storedUses = async () =>
      (
        await queryAll({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':pk': `G#${guild}`, ':p': 'INVITEUSE#' },
          ConsistentRead: true,
        })
      ).map((item) => [item.inviter_id, item.has_left, 'gsi2pk' in item]);
    // A join writes its use with no member index key: the member's pointer finds it.
    expect(await storedUses()).toEqual([[first, false, false]]);
    // The member leaves unreported and joins again through another owner's invite.
    await leave(guild, member);
    const { invite_code: secondCode } = await createInvite(guild, channel, second);
    await joinVia(guild, member, secondCode);
    ok(await check(guild, member));
    expect(await storedUses()).toEqual([
      [first, true, true],
      [second, false, false],
    ]);
    const entries = async (who: string) =>
      ok(await service.call('GET', `${IT}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: who } })).id;
    expect(await entries(member)).toBe(2);
    // The first owner's data goes: the member's earlier use with it, while the pointer naming their latest stays and finds it.
    ok(await service.call('DELETE', `${IT}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: first } }));
    expect(await entries(member)).toBe(1);
    // A repeat of the latest join's check still finds it recorded: nothing more is stored.
    expect(ok(await check(guild, member)).message).toContain(`exact through invite ${secondCode}, invited by ${second}`);
    expect(await entries(member)).toBe(1);
    ok(await service.call('DELETE', `${IT}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: member } }));
    expect(await entries(member)).toBe(0);
    expect(await storedUses()).toEqual([]);
  });

  it('gives an owner who rejoins through their own invite after an unreported leave a second use, not counted (contract 16)', async () => {
    const { guild, channel } = await ownGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    for (let i = 0; i < 2; i++) {
      await joinVia(guild, owner, invite_code);
      expect(ok(await check(guild, owner)).message).toContain('not counted');
      await leave(guild, owner);
    }
    expect(await currentUses(guild)).toEqual([2]);
    expect(await allUses(guild)).toEqual([
      expect.objectContaining({ member_id: owner, inviter_id: owner, counted: false }),
      expect.objectContaining({ member_id: owner, inviter_id: owner, counted: false }),
    ]);
  });

  it('records a check of the same join tried again 20 minutes later once: one use, one message (contract 16)', async () => {
    const { guild, channel } = await ownGuild(joinMessages);
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    ok(await check(guild, member));
    // The service runs in this process: its clock (Date) moves on 20 minutes with the test's.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 20 * 60_000);
      expect(ok(await check(guild, member)).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    } finally {
      vi.useRealTimers();
    }
    expect(await usesOf(guild, owner)).toEqual([expect.objectContaining({ member_id: member, attribution: 'exact', has_left: false })]);
    expect(await currentUses(guild)).toEqual([1]);
    expect((await postedIn(channel)).map((m) => m.content)).toEqual([`<@${member}> by <@${owner}> (1)`]);
  });

  it('records a check of a join tried again after the member left and the leave was reported once (contract 16)', async () => {
    const { guild, channel } = await ownGuild(joinMessages);
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const member = snowflake();
    await joinVia(guild, member, invite_code);
    ok(await check(guild, member));
    await leave(guild, member);
    ok(await check(guild, member, 'leave'));
    // The join's check comes once more (a redelivery): the member is gone, and their one join is recorded already.
    expect(ok(await check(guild, member)).message).toContain(`exact through invite ${invite_code}, invited by ${owner}`);
    expect(await usesOf(guild, owner)).toEqual([expect.objectContaining({ member_id: member, attribution: 'exact', has_left: true })]);
    expect(await allUses(guild)).toHaveLength(1);
    expect(await postedIn(channel)).toHaveLength(1);
  });

  it("pages an inviter's uses by key, newest first, each page at most limit long, with a cursor good only for its list", async () => {
    const { guild, channel } = await trackerGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const members = Array.from({ length: 5 }, snowflake);
    for (const m of members) {
      await joinVia(guild, m, invite_code);
      ok(await check(guild, m));
    }
    const all = await usesOf(guild, owner);
    expect(all.map((u: { member_id: string }) => u.member_id)).toEqual([...members].reverse());
    const page = (cursor?: string, inviter = owner) =>
      service.call('GET', `${IT}/stats/uses`, { query: { guild_id: guild, inviter_id: inviter, limit: 2, ...(cursor ? { cursor } : {}) } });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const data = ok(await page(cursor));
      expect(data.stats_uses.length).toBeLessThanOrEqual(2);
      seen.push(...data.stats_uses.map((u: { member_id: string }) => u.member_id));
      cursor = data.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual([...members].reverse());
    expect(pages).toBeGreaterThanOrEqual(3);
    // A cursor of one inviter's list is refused for another's.
    const first = ok(await page()).next_cursor as string;
    const refused = errorOf(await page(first, snowflake()));
    expect(refused.code).toBe(422);
    expect(refused.message).toContain("'cursor'");
  });

  it('lists invites newest first', async () => {
    const { guild, channel } = await ownGuild();
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push((await createInvite(guild, channel, snowflake())).invite_code);
    const listed = ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites.map((i: { invite_id: string }) => i.invite_id);
    expect(listed).toEqual([...made].reverse());
  });

  it('is exact when one invite rose by more than one, each join claiming one increment', async () => {
    const { guild, channel } = await ownGuild();
    const owner = snowflake();
    const { invite_code } = await createInvite(guild, channel, owner);
    const [first, second] = [snowflake(), snowflake()];
    await joinVia(guild, first, invite_code);
    await joinVia(guild, second, invite_code);
    expect(ok(await check(guild, first)).message).toContain(`exact through invite ${invite_code}`);
    expect(ok(await check(guild, second)).message).toContain(`exact through invite ${invite_code}`);
    expect((await usesOf(guild, owner)).map((u: { member_id: string }) => u.member_id).sort()).toEqual([first, second].sort());
  });
});
