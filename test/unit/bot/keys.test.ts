/**
 * The `Idempotency-Key` of each call the bot makes for an event: the
 * platform's identity of the event and the operation, the same for the
 * same event however it arrives, different for another event.
 */
import { GatewayDispatchEvents } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { call } from '../../../clients/bot/calls.js';
import { EVENT_TABLE, planDispatch } from '../../../clients/bot/events.js';
import { KEY_PATTERN, keyCalls, keyPart, operationPart } from '../../../clients/bot/keys.js';
import { BotMemory } from '../../../clients/bot/memory.js';
import { CHANNEL, click, dispatch, GUILD, interaction, MEMBER, MESSAGE, memberAdd, reaction, ready } from './fixtures.js';

const afterReady = () => {
  const memory = new BotMemory();
  planDispatch(ready(), memory);
  return memory;
};

const keysOf = (payload: Parameters<typeof planDispatch>[0], memory = afterReady()) => planDispatch(payload, memory)?.calls.map((c) => c.idempotencyKey);

describe('each event is keyed by its identity on the platform', () => {
  it("an interaction: its ID; a dropdown's several votes each their own", () => {
    expect(keysOf(interaction(click('poll:AbC_d-1:2')))).toEqual(['interaction:1100000000000000010:post.polls.entry.vote']);
    expect(keysOf(interaction(click('poll:AbC', ['1', '3', '4'])))).toEqual([
      'interaction:1100000000000000010:post.polls.entry.vote',
      'interaction:1100000000000000010:post.polls.entry.vote:2',
      'interaction:1100000000000000010:post.polls.entry.vote:3',
    ]);
    expect(keysOf(interaction(click('giveaway:enter:0abc123XYZ')))).toEqual(['interaction:1100000000000000010:post.giveaways.entries.entry_id.enter']);
  });

  it("a join: the guild, the member and the member's joined_at, one key per operation", () => {
    const prefix = `join:${GUILD}:${MEMBER}:2026-01-01T00:00:00.000Z`;
    expect(keysOf(memberAdd())).toEqual([
      `${prefix}:post.invite-tracker.events.join.check-invite`,
      `${prefix}:post.welcoming.check.welcome.channel`,
      `${prefix}:post.welcoming.check.welcome.dm`,
      `${prefix}:post.welcoming.check.role.on-join`,
      `${prefix}:post.verifier.event.create-verification`,
      `${prefix}:post.serverstats.stats.members.joined`,
    ]);
  });

  it('the same join delivered again, in another session or at another sequence number, has the same keys; a join after a leave has others', () => {
    const first = keysOf(memberAdd());
    const again = { ...memberAdd(), s: 77 };
    const otherSession = new BotMemory();
    planDispatch({ ...ready(), d: { ...ready().d, session_id: 'another' } }, otherSession);
    expect(keysOf(again, otherSession)).toEqual(first);

    const rejoin = memberAdd();
    (rejoin.d as { joined_at: string }).joined_at = '2026-01-02T00:00:00.000Z';
    expect(keysOf(rejoin)!.filter((k) => first!.includes(k))).toEqual([]);
  });

  it("the platform's joined_at with an offset keeps every character it differs by", () => {
    const at = (joinedAt: string) => {
      const payload = memberAdd();
      (payload.d as { joined_at: string }).joined_at = joinedAt;
      return keysOf(payload)![1];
    };
    expect(at('2026-01-01T00:00:00.000000+00:00')).toBe(`join:${GUILD}:${MEMBER}:2026-01-01T00:00:00.000000_2b00:00:post.welcoming.check.welcome.channel`);
    expect(at('2026-01-01T00:00:00.000000+05:00')).not.toBe(at('2026-01-01T00:00:00.000000-05:00'));
  });

  it('a message: its ID and what happened to it; a bulk delete keys each message as its own delete would', () => {
    const memory = afterReady();
    const created = dispatch(GatewayDispatchEvents.MessageCreate, {
      id: MESSAGE,
      guild_id: GUILD,
      channel_id: CHANNEL,
      author: { id: MEMBER, username: 'm', discriminator: '0', global_name: null, avatar: null },
    });
    expect(keysOf(created, memory)).toEqual([`message:${MESSAGE}:created:post.serverstats.stats.messages.sent`]);

    const deleted = keysOf(dispatch(GatewayDispatchEvents.MessageDelete, { id: MESSAGE, guild_id: GUILD, channel_id: CHANNEL }), memory);
    expect(deleted).toEqual([
      `message:${MESSAGE}:deleted:delete.polls.entry.delete-poll-on-message-delete`,
      `message:${MESSAGE}:deleted:post.reactionroles.panel.check-delete`,
      `message:${MESSAGE}:deleted:post.serverstats.starboard.check.deleted-message`,
      `message:${MESSAGE}:deleted:post.serverstats.stats.messages.deleted`,
    ]);
    const other = '1100000000000000033';
    const bulk = keysOf(dispatch(GatewayDispatchEvents.MessageDeleteBulk, { ids: [MESSAGE, other], guild_id: GUILD, channel_id: CHANNEL }), memory);
    expect(bulk!.slice(0, 4)).toEqual(deleted);
    expect(bulk!.slice(4)).toEqual([
      `message:${other}:deleted:delete.polls.entry.delete-poll-on-message-delete`,
      `message:${other}:deleted:post.reactionroles.panel.check-delete`,
      `message:${other}:deleted:post.serverstats.starboard.check.deleted-message`,
    ]);
  });

  it("anything else: the gateway session's ID and the dispatch's sequence number", () => {
    expect(keysOf(reaction(true))).toEqual([
      'dispatch:s:2:post.reactionroles.check',
      'dispatch:s:2:post.polls.entry.vote',
      'dispatch:s:2:post.serverstats.starboard.check.add',
    ]);
    expect(keysOf({ ...reaction(true), s: 3 })![0]).toBe('dispatch:s:3:post.reactionroles.check');
    const voice = new BotMemory();
    planDispatch(ready(), voice);
    planDispatch(dispatch(GatewayDispatchEvents.VoiceStateUpdate, { guild_id: GUILD, user_id: MEMBER, channel_id: '1100000000000000020' }), voice);
    // A move: the leave (PUT) and the join (POST) of one path are two operations.
    expect(keysOf(dispatch(GatewayDispatchEvents.VoiceStateUpdate, { guild_id: GUILD, user_id: MEMBER, channel_id: '1100000000000000021' }), voice)).toEqual([
      'dispatch:s:4:put.serverstats.stats.voice',
      'dispatch:s:4:post.serverstats.stats.voice',
    ]);
  });

  it('a dispatch with no identity and no session or sequence number is sent without a key', () => {
    const { s: _, ...unnumbered } = reaction(true);
    expect(keysOf(unnumbered as never)).toEqual([null, null, null]);
    expect(keysOf(reaction(true), new BotMemory())).toEqual([null, null, null]);
  });
});

describe('every key is one the service takes', () => {
  it('matches [A-Za-z0-9._:-]{1,255}, and is unique within an event', () => {
    const all = [
      keysOf(interaction(click('poll:AbC', ['1', '2']))),
      keysOf(memberAdd()),
      keysOf(reaction(false, MEMBER, { id: '1100000000000000099', name: 'party' })),
      keysOf(dispatch(GatewayDispatchEvents.ChannelDelete, { id: CHANNEL, guild_id: GUILD, type: 0 })),
    ];
    for (const keys of all) {
      expect(keys!.length).toBeGreaterThan(0);
      expect(new Set(keys).size).toBe(keys!.length);
      for (const key of keys!) expect(key).toMatch(KEY_PATTERN);
    }
  });

  it("names every operation of the table with a key's characters only", () => {
    const operations = Object.values(EVENT_TABLE).flatMap((row) => row?.operations ?? []);
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      const [method, path] = operation.split(' ');
      expect(operationPart({ method: method!.toLowerCase() as 'post', path: path! })).toMatch(/^(post|put|delete)\.[a-z0-9._-]+$/);
    }
  });

  it('writes unsafe characters and _ itself as their bytes, so different values never meet', () => {
    expect(keyPart('1234567890')).toBe('1234567890');
    expect(keyPart('a+b')).toBe('a_2bb');
    expect(keyPart('a_2bb')).toBe('a_5f2bb');
    expect(keyPart('é')).toBe('_c3_a9');
    expect(keyPart('a b/c')).toMatch(KEY_PATTERN);
  });

  it('a key that would exceed 255 characters is its hash, the same each time', () => {
    const calls = [call('post', '/modules/welcoming/check/welcome/channel', { guild_id: GUILD })];
    const [long] = keyCalls(`dispatch:${'x'.repeat(300)}:1`, calls);
    const [again] = keyCalls(`dispatch:${'x'.repeat(300)}:1`, calls);
    expect(long!.idempotencyKey).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
    expect(long!.idempotencyKey).toMatch(KEY_PATTERN);
    expect(again!.idempotencyKey).toBe(long!.idempotencyKey);
  });
});
