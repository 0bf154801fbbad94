/**
 * The reference bot's event table: from gateway dispatch payloads to the
 * service calls the bot makes, by event and by custom ID.
 */
import { GatewayDispatchEvents } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { EVENT_TABLE, planDispatch } from '../../../clients/bot/events.js';
import { BotMemory } from '../../../clients/bot/memory.js';
import { APP, BOT, CHANNEL, click, dispatch, GUILD, interaction, MEMBER, MESSAGE, memberAdd, modal, reaction, ready } from './fixtures.js';

const memoryAfterReady = () => {
  const memory = new BotMemory();
  planDispatch(ready(), memory);
  return memory;
};

const operations = (plan: ReturnType<typeof planDispatch>) => plan?.calls.map((c) => c.operation) ?? [];

describe('reactions', () => {
  it("a member's reaction asks reaction roles, polls and the starboard, as that member", () => {
    const plan = planDispatch(reaction(true), memoryAfterReady());
    expect(operations(plan)).toEqual(['POST /modules/reactionroles/check', 'POST /modules/polls/entry/vote', 'POST /modules/serverstats/starboard/check/add']);
    expect(plan!.calls[0]).toMatchObject({
      actor: MEMBER,
      body: { guild_id: GUILD, channel_id: CHANNEL, message_id: MESSAGE, interaction_type: 'reaction_add', emoji_name: '👍', emoji_id: null },
    });
    expect(plan!.calls[1]).toMatchObject({ actor: MEMBER, body: { action: 'add', emoji_name: '👍' } });
    expect(plan!.calls[2]).toMatchObject({ actor: null, body: { guild_id: GUILD, channel_id: CHANNEL, message_id: MESSAGE } });
  });

  it('a reaction taken back releases the entry and the vote', () => {
    const plan = planDispatch(reaction(false, MEMBER, { id: '1100000000000000099', name: 'party' }), memoryAfterReady());
    expect(plan!.calls[0]!.body).toMatchObject({ interaction_type: 'reaction_delete', emoji_name: 'party', emoji_id: '1100000000000000099' });
    expect(plan!.calls[1]!.body).toMatchObject({ action: 'remove' });
    expect(plan!.calls[2]!.operation).toBe('POST /modules/serverstats/starboard/check/remove');
  });

  it("the bot's own reactions (the panels' emoji it adds) call nothing", () => {
    expect(planDispatch(reaction(true, BOT), memoryAfterReady())).toBeNull();
  });

  it('a custom emoji with no name left only reaches the starboard', () => {
    expect(operations(planDispatch(reaction(true, MEMBER, { id: '1100000000000000099', name: null }), memoryAfterReady()))).toEqual([
      'POST /modules/serverstats/starboard/check/add',
    ]);
  });
});

describe('component clicks go to the module whose custom ID it is', () => {
  const plan = (d: Parameters<typeof interaction>[0]) => planDispatch(interaction(d), new BotMemory());

  it("a poll's button votes for its answer; the service answers the member through the webhook", () => {
    const p = plan(click('poll:AbC_d-1:2'));
    expect(p!.interaction).toMatchObject({ module: 'polls', answeredBy: 'followup', applicationId: APP, token: 'interaction-token' });
    expect(p!.calls).toEqual([
      expect.objectContaining({
        operation: 'POST /modules/polls/entry/vote',
        actor: MEMBER,
        body: {
          guild_id: GUILD,
          channel_id: CHANNEL,
          poll_id: 'AbC_d-1',
          answer_id: 2,
          action: 'add',
          interacted_message_id: MESSAGE,
          application_id: APP,
          token: 'interaction-token',
        },
      }),
    ]);
  });

  it("a poll's dropdown votes for each answer picked", () => {
    expect(plan(click('poll:AbC', ['1', '3']))!.calls.map((c) => c.body.answer_id)).toEqual([1, 3]);
  });

  it("a giveaway's Enter and Leave name the entry in the path", () => {
    expect(plan(click('giveaway:enter:0abc123XYZ'))!.calls[0]).toMatchObject({
      operation: 'POST /modules/giveaways/entries/{entry_id}/enter',
      pathParams: { entry_id: '0abc123XYZ' },
      actor: MEMBER,
      body: { guild_id: GUILD, application_id: APP, token: 'interaction-token' },
    });
    expect(plan(click('giveaway:leave:0abc123XYZ'))!.calls[0]!.operation).toBe('POST /modules/giveaways/entries/{entry_id}/leave');
  });

  it("a reaction-role button or dropdown reaches the panel's check with the custom ID and the values picked", () => {
    expect(plan(click('rr:entry1'))!.calls[0]).toMatchObject({
      operation: 'POST /modules/reactionroles/check',
      body: {
        interaction_type: 'component',
        interaction_custom_id: 'rr:entry1',
        interaction_id_token: 'interaction-token',
        application_id: APP,
        message_id: MESSAGE,
      },
    });
    expect(plan(click('rr:select', ['e1', 'e2']))!.calls[0]!.body.interaction_value).toBe('e1,e2');
  });

  it('a verification button is answered by the service through the callback, not acknowledged by the bot', () => {
    const p = plan(click('verifier:passphrase:0abcVERIFY'));
    expect(p!.interaction).toMatchObject({ module: 'verifier', answeredBy: 'callback' });
    expect(p!.calls[0]).toMatchObject({
      operation: 'POST /modules/verifier/event/handle-verification',
      actor: MEMBER,
      body: {
        verifier_id: '0abcVERIFY',
        guild_id: GUILD,
        interaction_id: '1100000000000000010',
        token: 'interaction-token',
        interaction_type: 'ComponentInteraction',
      },
    });
  });

  it("the passphrase modal's text reaches the verifier", () => {
    const p = plan(modal('verifier:modal:0abcVERIFY', 'open sesame'));
    expect(p!.calls[0]!.body).toMatchObject({
      verifier_id: '0abcVERIFY',
      guild_id: null,
      interaction_type: 'ModalInteraction',
      passphrase_value: 'open sesame',
    });
    expect(p!.calls[0]!.actor).toBe(MEMBER);
  });

  it('a custom ID of no module is left to whoever owns it', () => {
    expect(plan(click('tickets:open:1'))).toBeNull();
    expect(plan(click('poll:has spaces:1'))).toBeNull();
    expect(plan(modal('someone-else', 'x'))).toBeNull();
  });
});

describe('members', () => {
  it('a join is attributed to its invite first, then welcomed, given its roles, asked to verify and counted', () => {
    const memory = memoryAfterReady();
    planDispatch(dispatch(GatewayDispatchEvents.GuildCreate, { id: GUILD, member_count: 41, unavailable: false }), memory);
    const plan = planDispatch(memberAdd(), memory);
    expect(operations(plan)).toEqual([
      'POST /modules/invite-tracker/events/join/check-invite',
      'POST /modules/welcoming/check/welcome/channel',
      'POST /modules/welcoming/check/welcome/dm',
      'POST /modules/welcoming/check/role/on-join',
      'POST /modules/verifier/event/create-verification',
      'POST /modules/serverstats/stats/members/joined',
      'POST /modules/serverstats/stats/members/total',
    ]);
    expect(plan!.calls.slice(0, 5).every((c) => c.actor === MEMBER)).toBe(true);
    expect(plan!.calls[4]!.body).toEqual({ guild_id: GUILD, requester: MEMBER });
    expect(plan!.calls[6]!.body).toEqual({ guild_id: GUILD, current_members: 42 });
  });

  it('a leave is checked against invites, bid farewell and counted', () => {
    const plan = planDispatch(dispatch(GatewayDispatchEvents.GuildMemberRemove, { guild_id: GUILD, user: { id: MEMBER, username: 'm' } }), memoryAfterReady());
    expect(operations(plan)).toEqual([
      'POST /modules/invite-tracker/events/leave/check-invite',
      'POST /modules/welcoming/check/leave/channel',
      'POST /modules/serverstats/stats/members/left',
    ]);
  });
});

describe('messages, voice, presence, deletions', () => {
  it("a member's message is counted and its author remembered for its deletion", () => {
    const memory = memoryAfterReady();
    const created = planDispatch(
      dispatch(GatewayDispatchEvents.MessageCreate, { id: MESSAGE, channel_id: CHANNEL, guild_id: GUILD, author: { id: MEMBER, username: 'm' }, content: '' }),
      memory,
    );
    expect(created!.calls[0]!.body).toEqual({ guild_id: GUILD, channel_id: CHANNEL, author_id: MEMBER, message_id: MESSAGE });
    const deleted = planDispatch(dispatch(GatewayDispatchEvents.MessageDelete, { id: MESSAGE, channel_id: CHANNEL, guild_id: GUILD }), memory);
    expect(operations(deleted)).toEqual([
      'DELETE /modules/polls/entry/delete-poll-on-message-delete',
      'POST /modules/reactionroles/panel/check-delete',
      'POST /modules/serverstats/starboard/check/deleted-message',
      'POST /modules/serverstats/stats/messages/deleted',
    ]);
    expect(deleted!.calls[3]!.body).toMatchObject({ author_id: MEMBER });
  });

  it("bots' messages are not counted", () => {
    const d = { id: MESSAGE, channel_id: CHANNEL, guild_id: GUILD, author: { id: BOT, username: 'b', bot: true } };
    expect(planDispatch(dispatch(GatewayDispatchEvents.MessageCreate, d), memoryAfterReady())).toBeNull();
  });

  it('a move between voice channels is a leave then a join; the same channel again is nothing', () => {
    const memory = memoryAfterReady();
    const voice = (channel_id: string | null) =>
      dispatch(GatewayDispatchEvents.VoiceStateUpdate, { guild_id: GUILD, channel_id, user_id: MEMBER, session_id: 'x' });
    expect(planDispatch(voice('1100000000000000020'), memory)!.calls.map((c) => [c.method, c.body.channel_id])).toEqual([['post', '1100000000000000020']]);
    expect(planDispatch(voice('1100000000000000020'), memory)).toBeNull();
    expect(planDispatch(voice('1100000000000000021'), memory)!.calls.map((c) => [c.method, c.body.channel_id])).toEqual([
      ['put', '1100000000000000020'],
      ['post', '1100000000000000021'],
    ]);
    expect(planDispatch(voice(null), memory)!.calls.map((c) => c.body)).toEqual([
      { guild_id: GUILD, channel_id: '1100000000000000021', left_member_id: MEMBER },
    ]);
  });

  it("a presence's activities are recorded, cut to the statistic's limits", () => {
    const activities = Array.from({ length: 30 }, (_, i) => ({ name: `game ${i}`.padEnd(200, '!'), type: 0 }));
    const plan = planDispatch(
      dispatch(GatewayDispatchEvents.PresenceUpdate, { guild_id: GUILD, user: { id: MEMBER }, status: 'online', activities }),
      memoryAfterReady(),
    );
    const sent = plan!.calls[0]!.body.activities as { name: string }[];
    expect(sent).toHaveLength(25);
    expect(sent[0]!.name).toHaveLength(128);
  });

  it('a deleted channel, invites created and deleted reach their checks', () => {
    expect(operations(planDispatch(dispatch(GatewayDispatchEvents.ChannelDelete, { id: CHANNEL, guild_id: GUILD, type: 0 }), new BotMemory()))).toEqual([
      'POST /modules/reactionroles/panel/check-delete',
      'POST /modules/serverstats/counters/check-delete',
      'POST /modules/serverstats/starboard/check/delete',
    ]);
    const created = planDispatch(
      dispatch(GatewayDispatchEvents.InviteCreate, { guild_id: GUILD, channel_id: CHANNEL, code: 'abc', inviter: { id: MEMBER } }),
      new BotMemory(),
    );
    expect(created!.calls.map((c) => c.body)).toEqual([
      { guild_id: GUILD, invite_code: 'abc', channel_id: CHANNEL },
      { guild_id: GUILD, creating_user_id: MEMBER },
    ]);
    expect(
      planDispatch(dispatch(GatewayDispatchEvents.InviteDelete, { guild_id: GUILD, channel_id: CHANNEL, code: 'abc' }), new BotMemory())!.calls[0]!.body,
    ).toEqual({
      guild_id: GUILD,
      invite_code: 'abc',
    });
  });

  it('a native poll vote names the message and the answer', () => {
    const plan = planDispatch(
      dispatch(GatewayDispatchEvents.MessagePollVoteAdd, { user_id: MEMBER, channel_id: CHANNEL, message_id: MESSAGE, guild_id: GUILD, answer_id: 2 }),
      new BotMemory(),
    );
    expect(plan!.calls[0]).toMatchObject({ actor: MEMBER, body: { message_id: MESSAGE, answer_id: 2, action: 'add' } });
  });
});

describe('dispatches the bot cannot use', () => {
  it('events no module needs, and payloads that are not objects, plan nothing', () => {
    expect(planDispatch({ t: 'TYPING_START', d: {} }, new BotMemory())).toBeNull();
    expect(planDispatch({ t: 'MESSAGE_REACTION_ADD', d: null }, new BotMemory())).toBeNull();
    expect(planDispatch({ t: 'GUILD_MEMBER_ADD', d: 'nonsense' }, new BotMemory())).toBeNull();
  });

  it('a dispatch missing its guild or member plans nothing', () => {
    expect(planDispatch({ t: 'GUILD_MEMBER_ADD', d: { guild_id: GUILD } }, new BotMemory())).toBeNull();
    expect(planDispatch({ t: 'MESSAGE_REACTION_ADD', d: { user_id: MEMBER, channel_id: CHANNEL, message_id: MESSAGE } }, new BotMemory())).toBeNull();
  });
});

describe('the table as data', () => {
  const samples = [
    reaction(true),
    reaction(false),
    memberAdd(),
    dispatch(GatewayDispatchEvents.GuildMemberRemove, { guild_id: GUILD, user: { id: MEMBER } }),
    interaction(click('poll:a:1')),
    interaction(click('giveaway:enter:a')),
    interaction(click('giveaway:leave:a')),
    interaction(click('rr:a')),
    interaction(click('verifier:click:a')),
    interaction(modal('verifier:modal:a', 'x')),
    dispatch(GatewayDispatchEvents.ChannelDelete, { id: CHANNEL, guild_id: GUILD, type: 0 }),
  ];

  it('each row calls only the operations it lists', () => {
    const memory = memoryAfterReady();
    planDispatch(dispatch(GatewayDispatchEvents.GuildCreate, { id: GUILD, member_count: 3 }), memory);
    for (const sample of samples) {
      const row = (EVENT_TABLE as Record<string, { operations: string[] }>)[sample.t]!;
      for (const operation of operations(planDispatch(sample, memory))) expect(row.operations).toContain(operation);
    }
  });
});
