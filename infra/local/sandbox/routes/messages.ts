/** Message routes: post, read, list, edit, delete; each change is dispatched (MESSAGE_CREATE, _UPDATE, _DELETE). */
import { GatewayDispatchEvents, type GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import type { User } from '#shared/platform/types.js';
import { cannotEditOthers, cannotEditPoll, emptyMessage } from '../errors.js';
import { dispatch } from '../events.js';
import { ensureChannel, requireChannel, requireMessage } from '../lookup.js';
import { readLimit, readSnowflakeQuery, type Route } from '../router.js';
import { BOT_USER, mintSnowflake, type SandboxState, type StoredMessage, type StoredPoll } from '../state.js';
import { checkMessageBody, type MessageFields } from '../validate.js';
import { messageView } from '../views.js';
import { assertBotMaySend } from './guild-channels.js';
import { assertDmAccepted, isMember, memberView } from './members.js';

const HOUR_MS = 3_600_000;

function newPoll(poll: NonNullable<MessageFields['poll']>, now: Date): StoredPoll {
  return {
    question: poll.question,
    answers: poll.answers.map((a, i) => ({ answer_id: i + 1, poll_media: a.poll_media })),
    expiry: new Date(now.getTime() + (poll.duration ?? 24) * HOUR_MS),
    allow_multiselect: poll.allow_multiselect ?? false,
    layout_type: poll.layout_type ?? 1,
    ended: false,
    votes: new Map(),
  };
}

function isEmpty(m: Pick<StoredMessage, 'content' | 'embeds' | 'components' | 'poll'>): boolean {
  return m.content === '' && m.embeds.length === 0 && m.components.length === 0 && !m.poll;
}

/**
 * A new message from a body as the platform checks it (limits, not empty),
 * not yet stored anywhere: channel posts, member posts and interaction
 * answers all start here.
 */
export function newMessage(channelId: string, author: User, body: unknown): StoredMessage {
  const fields = checkMessageBody(body, 'create');
  const now = new Date();
  const message: StoredMessage = {
    id: mintSnowflake(now.getTime()),
    channel_id: channelId,
    author,
    content: fields.content ?? '',
    embeds: fields.embeds ?? [],
    components: fields.components ?? [],
    allowed_mentions: fields.allowed_mentions,
    flags: fields.flags ?? 0,
    timestamp: now,
    edited_timestamp: null,
    reactions: new Map(),
  };
  if (fields.poll) message.poll = newPoll(fields.poll, now);
  if (isEmpty(message)) throw emptyMessage();
  return message;
}

/** A message as the gateway dispatches it: with its guild and, in a guild, its author's member. */
function messageEvent(state: SandboxState, message: StoredMessage): GatewayMessageCreateDispatchData {
  const guildId = state.channels.get(message.channel_id)?.guild_id;
  const view = messageView(message);
  if (!guildId) return view;
  if (message.webhook_id || !isMember(state, guildId, message.author.id)) return { ...view, guild_id: guildId };
  const { user: _user, ...member } = memberView(state, guildId, message.author.id);
  return { ...view, guild_id: guildId, member };
}

/** How long the platform remembers a nonce it enforces (a few minutes). */
const NONCE_WINDOW_MS = 5 * 60 * 1000;

/** Posts a message in a channel (created on first use), dispatches it and answers it. */
export function postMessage(state: SandboxState, channelId: string, author: User, body: unknown): StoredMessage {
  const channel = ensureChannel(state, channelId);
  // With enforce_nonce, a second post with the same nonce by the same author answers the first message instead of a new one.
  const { nonce, enforce_nonce: enforce } = (body && typeof body === 'object' ? body : {}) as { nonce?: unknown; enforce_nonce?: unknown };
  if (enforce === true && (typeof nonce === 'string' || typeof nonce === 'number')) {
    const since = Date.now() - NONCE_WINDOW_MS;
    const earlier = [...channel.messages.values()].find((m) => m.nonce === String(nonce) && m.author.id === author.id && m.timestamp.getTime() >= since);
    if (earlier) return earlier;
  }
  const message = newMessage(channelId, author, body);
  if (typeof nonce === 'string' || typeof nonce === 'number') message.nonce = String(nonce);
  channel.messages.set(message.id, message);
  dispatch(state, { t: GatewayDispatchEvents.MessageCreate, d: messageEvent(state, message) });
  return message;
}

/** The bot edits its message (REST, or an interaction answered with type 7); dispatched as MESSAGE_UPDATE. */
export function editMessage(state: SandboxState, channelId: string, messageId: string, body: unknown): StoredMessage {
  const message = requireMessage(state, channelId, messageId);
  if (body && typeof body === 'object' && 'poll' in body && (body as { poll: unknown }).poll != null) throw cannotEditPoll();
  const fields = checkMessageBody(body, 'edit');
  if (message.author.id !== BOT_USER.id) throw cannotEditOthers();
  const next = {
    content: fields.content === undefined ? message.content : (fields.content ?? ''),
    embeds: fields.embeds === undefined ? message.embeds : (fields.embeds ?? []),
    components: fields.components === undefined ? message.components : (fields.components ?? []),
    poll: message.poll,
  };
  if (isEmpty(next)) throw emptyMessage();
  Object.assign(message, { content: next.content, embeds: next.embeds, components: next.components, edited_timestamp: new Date() });
  if (fields.flags !== undefined) message.flags = fields.flags;
  if (fields.allowed_mentions !== undefined) message.allowed_mentions = fields.allowed_mentions;
  dispatch(state, { t: GatewayDispatchEvents.MessageUpdate, d: messageEvent(state, message) });
  return message;
}

/** Newest first, like the platform; `before`/`after` are message IDs. */
function listMessages(state: SandboxState, channelId: string, query: URLSearchParams): StoredMessage[] {
  const limit = readLimit(query, 50);
  const before = readSnowflakeQuery(query, 'before');
  const after = readSnowflakeQuery(query, 'after');
  let list = [...requireChannel(state, channelId).messages.values()];
  if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before));
  if (after)
    return list
      .filter((m) => BigInt(m.id) > BigInt(after))
      .slice(0, limit)
      .reverse();
  return list.reverse().slice(0, limit);
}

/** The message routes of the platform API. */
export const messageRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/channels/:channel/messages',
    handle: ({ state, params, body }) => (
      assertDmAccepted(state, params.channel!),
      assertBotMaySend(state, params.channel!),
      { status: 200, body: messageView(postMessage(state, params.channel!, BOT_USER, body)) }
    ),
  },
  {
    method: 'GET',
    pattern: '/channels/:channel/messages',
    handle: ({ state, params, query }) => ({ status: 200, body: listMessages(state, params.channel!, query).map(messageView) }),
  },
  {
    method: 'GET',
    pattern: '/channels/:channel/messages/:message',
    handle: ({ state, params }) => ({ status: 200, body: messageView(requireMessage(state, params.channel!, params.message!)) }),
  },
  {
    method: 'PATCH',
    pattern: '/channels/:channel/messages/:message',
    handle: ({ state, params, body }) => ({ status: 200, body: messageView(editMessage(state, params.channel!, params.message!, body)) }),
  },
  {
    method: 'DELETE',
    pattern: '/channels/:channel/messages/:message',
    handle: ({ state, params }) => {
      requireMessage(state, params.channel!, params.message!);
      const channel = state.channels.get(params.channel!)!;
      channel.messages.delete(params.message!);
      const d = { id: params.message!, channel_id: channel.id, ...(channel.guild_id ? { guild_id: channel.guild_id } : {}) };
      dispatch(state, { t: GatewayDispatchEvents.MessageDelete, d });
      return { status: 204 };
    },
  },
];
