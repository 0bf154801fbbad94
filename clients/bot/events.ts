/**
 * The event table: each gateway dispatch the modules need, and the service
 * operations it calls. One row per event; `operations` lists every operation
 * the row may call (the README's table, and a unit test checks the rows call
 * nothing else); `plan` reads the dispatch (discord-api-types payloads) and
 * answers the calls, in the order they are made. Pure, but for the bot's
 * memory of what later dispatches do not carry (memory.ts).
 *
 * A dispatch missing what a row needs (no guild, no member) plans nothing.
 * Every call gets the `Idempotency-Key` of the event (keys.ts): a row's
 * `identity`, else the dispatch's place in the gateway session.
 */
import {
  type APIInteraction,
  type GatewayChannelDeleteDispatchData,
  GatewayDispatchEvents,
  type GatewayDispatchPayload,
  type GatewayGuildCreateDispatchData,
  type GatewayGuildMemberAddDispatchData,
  type GatewayGuildMemberRemoveDispatchData,
  type GatewayInviteCreateDispatchData,
  type GatewayInviteDeleteDispatchData,
  type GatewayMessageCreateDispatchData,
  type GatewayMessageDeleteBulkDispatchData,
  type GatewayMessageDeleteDispatchData,
  type GatewayMessagePollVoteDispatchData,
  type GatewayMessageReactionAddDispatchData,
  type GatewayMessageReactionRemoveAllDispatchData,
  type GatewayMessageReactionRemoveEmojiDispatchData,
  type GatewayMessageReactionRemoveDispatchData,
  type GatewayPresenceUpdateDispatchData,
  type GatewayReadyDispatchData,
  type GatewayVoiceStateUpdateDispatchData,
} from 'discord-api-types/v10';
import { type Call, call, operationName } from './calls.js';
import { type AnsweredBy, COMPONENT_ROWS, MODAL_ROWS, planInteraction } from './interactions.js';
import { dispatchIdentity, interactionIdentity, joinIdentity, keyCalls, messageIdentity } from './keys.js';
import type { BotMemory } from './memory.js';

/** What the bot does with one dispatch. */
export interface Plan {
  guildId: string | null;
  calls: Call[];
  /** For an interaction: the module it belongs to and who answers the member. */
  interaction?: { id: string; token: string; applicationId: string; module: string; answeredBy: AnsweredBy };
}

type DataOf<E extends GatewayDispatchEvents> = Extract<GatewayDispatchPayload, { t: E }>['d'];

export interface EventRow<E extends GatewayDispatchEvents> {
  /** The modules that need the event. */
  modules: string[];
  /** Every operation the row may call, in the order it calls them. */
  operations: string[];
  plan: (data: DataOf<E>, memory: BotMemory) => Plan | null;
  /**
   * The event's own identity (keys.ts), where the platform gives one, as the
   * README shows it (`shape`); without one (or where `of` answers null) the
   * gateway session's ID and the dispatch's sequence number.
   */
  identity?: { shape: string; of: (data: DataOf<E>) => string | null };
}

type EventTable = { [E in GatewayDispatchEvents]?: EventRow<E> };

const op = operationName;

const REACTION_ADD = [
  op('post', '/modules/reactionroles/check'),
  op('post', '/modules/polls/entry/vote'),
  op('post', '/modules/serverstats/starboard/check/add'),
];
const REACTION_REMOVE = [
  op('post', '/modules/reactionroles/check'),
  op('post', '/modules/polls/entry/vote'),
  op('post', '/modules/serverstats/starboard/check/remove'),
];

/** A member's reaction on a message: a reaction-role panel, an emoji poll, the starboard. The bot's own reactions are skipped. */
function reaction(d: GatewayMessageReactionAddDispatchData | GatewayMessageReactionRemoveDispatchData, memory: BotMemory, added: boolean): Plan | null {
  if (!d.guild_id || !d.user_id || d.user_id === memory.botUserId) return null;
  const where = { guild_id: d.guild_id, channel_id: d.channel_id, message_id: d.message_id };
  const calls: Call[] = [];
  // An emoji with no name (a custom emoji since deleted) can match no entry or answer.
  if (d.emoji?.name) {
    const emoji = { emoji_name: d.emoji.name, emoji_id: d.emoji.id ?? null };
    calls.push(
      call('post', '/modules/reactionroles/check', { ...where, interaction_type: added ? 'reaction_add' : 'reaction_delete', ...emoji }, { actor: d.user_id }),
      call('post', '/modules/polls/entry/vote', { ...where, action: added ? 'add' : 'remove', ...emoji }, { actor: d.user_id }),
    );
  }
  calls.push(call('post', added ? '/modules/serverstats/starboard/check/add' : '/modules/serverstats/starboard/check/remove', where));
  return { guildId: d.guild_id, calls };
}

/** Reactions cleared by a moderator: the starboard counts the message again. */
function starboardRecount(d: GatewayMessageReactionRemoveAllDispatchData): Plan | null {
  if (!d.guild_id) return null;
  return {
    guildId: d.guild_id,
    calls: [call('post', '/modules/serverstats/starboard/check/remove', { guild_id: d.guild_id, channel_id: d.channel_id, message_id: d.message_id })],
  };
}

/** A native poll vote. */
function pollVote(d: GatewayMessagePollVoteDispatchData, added: boolean): Plan | null {
  if (!d.guild_id || !d.user_id) return null;
  return {
    guildId: d.guild_id,
    calls: [
      call(
        'post',
        '/modules/polls/entry/vote',
        { guild_id: d.guild_id, channel_id: d.channel_id, message_id: d.message_id, answer_id: d.answer_id, action: added ? 'add' : 'remove' },
        { actor: d.user_id },
      ),
    ],
  };
}

/** A message gone: the polls, panels and starboard posts it carried; the statistic when its author is known. */
function messageGone(guildId: string, channelId: string, messageId: string, memory: BotMemory): Call[] {
  const author = memory.authorOf(messageId);
  return [
    call('delete', '/modules/polls/entry/delete-poll-on-message-delete', { guild_id: guildId, channel_id: channelId, interacted_message_id: messageId }),
    call('post', '/modules/reactionroles/panel/check-delete', { guild_id: guildId, channel_id: channelId, message_id: messageId }),
    call('post', '/modules/serverstats/starboard/check/deleted-message', { guild_id: guildId, message_id: messageId }),
    ...(author
      ? [call('post', '/modules/serverstats/stats/messages/deleted', { guild_id: guildId, channel_id: channelId, author_id: author, message_id: messageId })]
      : []),
  ];
}

const MESSAGE_GONE = [
  op('delete', '/modules/polls/entry/delete-poll-on-message-delete'),
  op('post', '/modules/reactionroles/panel/check-delete'),
  op('post', '/modules/serverstats/starboard/check/deleted-message'),
  op('post', '/modules/serverstats/stats/messages/deleted'),
];

const total = (guildId: string, count: number | null): Call[] =>
  count === null ? [] : [call('post', '/modules/serverstats/stats/members/total', { guild_id: guildId, current_members: count })];

/** The presence's activities as the statistic takes them (at most 25, names and texts cut to its limits). */
function activitiesOf(d: GatewayPresenceUpdateDispatchData) {
  return (d.activities ?? [])
    .filter((a) => typeof a?.name === 'string' && a.name !== '' && Number.isInteger(a.type))
    .slice(0, 25)
    .map((a) => ({ activity_type: a.type, name: a.name.slice(0, 128), details: a.details?.slice(0, 256) ?? null, state: a.state?.slice(0, 256) ?? null }));
}

export const EVENT_TABLE: EventTable = {
  [GatewayDispatchEvents.Ready]: {
    modules: [],
    operations: [],
    plan: (d: GatewayReadyDispatchData, memory) => {
      memory.botUserId = d.user.id;
      memory.sessionId = d.session_id;
      return null;
    },
  },
  [GatewayDispatchEvents.GuildCreate]: {
    modules: ['serverstats'],
    operations: [op('post', '/modules/serverstats/stats/members/total')],
    plan: (d: GatewayGuildCreateDispatchData, memory) => {
      if (!Number.isInteger(d.member_count)) return null;
      memory.setMemberCount(d.id, d.member_count);
      return { guildId: d.id, calls: total(d.id, d.member_count) };
    },
  },
  [GatewayDispatchEvents.MessageReactionAdd]: {
    modules: ['reactionroles', 'polls', 'serverstats'],
    operations: REACTION_ADD,
    plan: (d, memory) => reaction(d, memory, true),
  },
  [GatewayDispatchEvents.MessageReactionRemove]: {
    modules: ['reactionroles', 'polls', 'serverstats'],
    operations: REACTION_REMOVE,
    plan: (d, memory) => reaction(d, memory, false),
  },
  [GatewayDispatchEvents.MessageReactionRemoveAll]: {
    modules: ['serverstats'],
    operations: [op('post', '/modules/serverstats/starboard/check/remove')],
    plan: (d: GatewayMessageReactionRemoveAllDispatchData) => starboardRecount(d),
  },
  [GatewayDispatchEvents.MessageReactionRemoveEmoji]: {
    modules: ['serverstats'],
    operations: [op('post', '/modules/serverstats/starboard/check/remove')],
    plan: (d: GatewayMessageReactionRemoveEmojiDispatchData) => starboardRecount(d),
  },
  [GatewayDispatchEvents.MessagePollVoteAdd]: {
    modules: ['polls'],
    operations: [op('post', '/modules/polls/entry/vote')],
    plan: (d) => pollVote(d, true),
  },
  [GatewayDispatchEvents.MessagePollVoteRemove]: {
    modules: ['polls'],
    operations: [op('post', '/modules/polls/entry/vote')],
    plan: (d) => pollVote(d, false),
  },
  [GatewayDispatchEvents.InteractionCreate]: {
    modules: ['polls', 'giveaways', 'reactionroles', 'verifier'],
    operations: [...new Set([...COMPONENT_ROWS, ...MODAL_ROWS].flatMap((row) => row.operations))],
    identity: { shape: 'interaction:<id>', of: (d: APIInteraction) => interactionIdentity(d.id) },
    plan: (d: APIInteraction) => {
      const plan = planInteraction(d);
      if (!plan) return null;
      const { module, answeredBy, calls } = plan;
      return { guildId: d.guild_id ?? null, calls, interaction: { id: d.id, token: d.token, applicationId: d.application_id, module, answeredBy } };
    },
  },
  [GatewayDispatchEvents.GuildMemberAdd]: {
    modules: ['invite-tracker', 'welcoming', 'verifier', 'serverstats'],
    // The invite is attributed first, so the welcome can name the inviter.
    operations: [
      op('post', '/modules/invite-tracker/events/join/check-invite'),
      op('post', '/modules/welcoming/check/welcome/channel'),
      op('post', '/modules/welcoming/check/welcome/dm'),
      op('post', '/modules/welcoming/check/role/on-join'),
      op('post', '/modules/verifier/event/create-verification'),
      op('post', '/modules/serverstats/stats/members/joined'),
      op('post', '/modules/serverstats/stats/members/total'),
    ],
    // A member who left and joined again is another join: the platform's joined_at tells them apart.
    identity: {
      shape: 'join:<guild>:<member>:<joined_at>',
      of: (d: GatewayGuildMemberAddDispatchData) =>
        d.guild_id && d.user?.id && typeof d.joined_at === 'string' ? joinIdentity(d.guild_id, d.user.id, d.joined_at) : null,
    },
    plan: (d: GatewayGuildMemberAddDispatchData, memory) => {
      const member = d.user?.id;
      if (!d.guild_id || !member || member === memory.botUserId) return null;
      const guild = { guild_id: d.guild_id };
      const actor = { actor: member };
      return {
        guildId: d.guild_id,
        calls: [
          call('post', '/modules/invite-tracker/events/join/check-invite', guild, actor),
          call('post', '/modules/welcoming/check/welcome/channel', guild, actor),
          call('post', '/modules/welcoming/check/welcome/dm', guild, actor),
          call('post', '/modules/welcoming/check/role/on-join', guild, actor),
          call('post', '/modules/verifier/event/create-verification', { guild_id: d.guild_id, requester: member }, actor),
          call('post', '/modules/serverstats/stats/members/joined', { guild_id: d.guild_id, joined_member_id: member }),
          ...total(d.guild_id, memory.moveMemberCount(d.guild_id, 1)),
        ],
      };
    },
  },
  [GatewayDispatchEvents.GuildMemberRemove]: {
    modules: ['invite-tracker', 'welcoming', 'serverstats'],
    operations: [
      op('post', '/modules/invite-tracker/events/leave/check-invite'),
      op('post', '/modules/welcoming/check/leave/channel'),
      op('post', '/modules/serverstats/stats/members/left'),
      op('post', '/modules/serverstats/stats/members/total'),
    ],
    plan: (d: GatewayGuildMemberRemoveDispatchData, memory) => {
      const member = d.user?.id;
      if (!d.guild_id || !member || member === memory.botUserId) return null;
      const guild = { guild_id: d.guild_id };
      return {
        guildId: d.guild_id,
        calls: [
          call('post', '/modules/invite-tracker/events/leave/check-invite', guild, { actor: member }),
          call('post', '/modules/welcoming/check/leave/channel', guild, { actor: member }),
          call('post', '/modules/serverstats/stats/members/left', { guild_id: d.guild_id, left_member_id: member }),
          ...total(d.guild_id, memory.moveMemberCount(d.guild_id, -1)),
        ],
      };
    },
  },
  [GatewayDispatchEvents.MessageCreate]: {
    modules: ['serverstats'],
    operations: [op('post', '/modules/serverstats/stats/messages/sent')],
    identity: { shape: 'message:<id>:created', of: (d: GatewayMessageCreateDispatchData) => messageIdentity(d.id, 'created') },
    // Members' messages count; the bot's, other bots' and webhooks' do not.
    plan: (d: GatewayMessageCreateDispatchData, memory) => {
      if (!d.guild_id || !d.author?.id || d.author.bot || d.webhook_id) return null;
      memory.rememberAuthor(d.id, d.author.id);
      return {
        guildId: d.guild_id,
        calls: [
          call('post', '/modules/serverstats/stats/messages/sent', {
            guild_id: d.guild_id,
            channel_id: d.channel_id,
            author_id: d.author.id,
            message_id: d.id,
          }),
        ],
      };
    },
  },
  [GatewayDispatchEvents.MessageDelete]: {
    modules: ['polls', 'reactionroles', 'serverstats'],
    operations: MESSAGE_GONE,
    identity: { shape: 'message:<id>:deleted', of: (d: GatewayMessageDeleteDispatchData) => messageIdentity(d.id, 'deleted') },
    plan: (d: GatewayMessageDeleteDispatchData, memory) =>
      d.guild_id ? { guildId: d.guild_id, calls: messageGone(d.guild_id, d.channel_id, d.id, memory) } : null,
  },
  [GatewayDispatchEvents.MessageDeleteBulk]: {
    modules: ['polls', 'reactionroles', 'serverstats'],
    operations: MESSAGE_GONE,
    // Keyed by each message, as its own MESSAGE_DELETE would be: the plan keys the calls itself.
    identity: { shape: 'message:<id>:deleted, for each message', of: () => null },
    plan: (d: GatewayMessageDeleteBulkDispatchData, memory) =>
      d.guild_id && Array.isArray(d.ids)
        ? { guildId: d.guild_id, calls: d.ids.flatMap((id) => keyCalls(messageIdentity(id, 'deleted'), messageGone(d.guild_id!, d.channel_id, id, memory))) }
        : null,
  },
  [GatewayDispatchEvents.ChannelDelete]: {
    modules: ['reactionroles', 'serverstats'],
    operations: [
      op('post', '/modules/reactionroles/panel/check-delete'),
      op('post', '/modules/serverstats/counters/check-delete'),
      op('post', '/modules/serverstats/starboard/check/delete'),
    ],
    plan: (d: GatewayChannelDeleteDispatchData) => {
      const guildId = 'guild_id' in d ? d.guild_id : undefined;
      if (!guildId) return null;
      const where = { guild_id: guildId, channel_id: d.id };
      return {
        guildId,
        calls: [
          call('post', '/modules/reactionroles/panel/check-delete', where),
          call('post', '/modules/serverstats/counters/check-delete', where),
          call('post', '/modules/serverstats/starboard/check/delete', where),
        ],
      };
    },
  },
  [GatewayDispatchEvents.InviteCreate]: {
    modules: ['invite-tracker', 'serverstats'],
    operations: [op('post', '/modules/invite-tracker/events/invite/create'), op('post', '/modules/serverstats/stats/modules/invite-tracker/invite/created')],
    plan: (d: GatewayInviteCreateDispatchData) => {
      if (!d.guild_id || !d.code) return null;
      return {
        guildId: d.guild_id,
        calls: [
          call('post', '/modules/invite-tracker/events/invite/create', { guild_id: d.guild_id, invite_code: d.code, channel_id: d.channel_id }),
          ...(d.inviter?.id
            ? [call('post', '/modules/serverstats/stats/modules/invite-tracker/invite/created', { guild_id: d.guild_id, creating_user_id: d.inviter.id })]
            : []),
        ],
      };
    },
  },
  [GatewayDispatchEvents.InviteDelete]: {
    modules: ['invite-tracker'],
    operations: [op('post', '/modules/invite-tracker/events/invite/delete')],
    plan: (d: GatewayInviteDeleteDispatchData) =>
      d.guild_id && d.code
        ? { guildId: d.guild_id, calls: [call('post', '/modules/invite-tracker/events/invite/delete', { guild_id: d.guild_id, invite_code: d.code })] }
        : null,
  },
  [GatewayDispatchEvents.VoiceStateUpdate]: {
    modules: ['serverstats'],
    // A move is a leave of the old channel, then a join of the new one.
    operations: [op('put', '/modules/serverstats/stats/voice'), op('post', '/modules/serverstats/stats/voice')],
    plan: (d: GatewayVoiceStateUpdateDispatchData, memory) => {
      if (!d.guild_id || !d.user_id) return null;
      const now = d.channel_id ?? null;
      const before = memory.moveVoice(d.guild_id, d.user_id, now);
      if (before === now) return null;
      const calls: Call[] = [];
      if (before) calls.push(call('put', '/modules/serverstats/stats/voice', { guild_id: d.guild_id, channel_id: before, left_member_id: d.user_id }));
      if (now) calls.push(call('post', '/modules/serverstats/stats/voice', { guild_id: d.guild_id, channel_id: now, joined_member_id: d.user_id }));
      return { guildId: d.guild_id, calls };
    },
  },
  [GatewayDispatchEvents.PresenceUpdate]: {
    modules: ['serverstats'],
    operations: [op('post', '/modules/serverstats/stats/activities/presence')],
    plan: (d: GatewayPresenceUpdateDispatchData) => {
      if (!d.guild_id || !d.user?.id) return null;
      const activities = activitiesOf(d);
      if (activities.length === 0) return null;
      return {
        guildId: d.guild_id,
        calls: [call('post', '/modules/serverstats/stats/activities/presence', { guild_id: d.guild_id, presence_user_id: d.user.id, activities })],
      };
    },
  },
};

/** A dispatch as the gateway sends it: its event name, its data and its sequence number in the session. */
export interface Dispatch {
  t: string;
  d: unknown;
  s?: number | null;
}

/**
 * The plan for a dispatch, each call keyed with the event's identity;
 * null for an event no row handles, or one the row skips. Throws on a
 * payload too malformed to read. A dispatch without a sequence number
 * (never from the gateway) and with no identity of its own is sent unkeyed.
 */
export function planDispatch(payload: Dispatch, memory: BotMemory): Plan | null {
  const row = (EVENT_TABLE as Record<string, EventRow<GatewayDispatchEvents> | undefined>)[payload.t];
  if (!row || payload.d === null || typeof payload.d !== 'object') return null;
  const plan = row.plan(payload.d as never, memory);
  if (!plan) return null;
  const identity =
    row.identity?.of(payload.d as never) ??
    (memory.sessionId !== null && Number.isSafeInteger(payload.s) ? dispatchIdentity(memory.sessionId, payload.s as number) : null);
  return { ...plan, calls: keyCalls(identity, plan.calls) };
}
