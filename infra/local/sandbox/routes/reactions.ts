/** Reaction routes: the bot's own, a member's, an emoji's, all of a message's; each change is dispatched. */
import { GatewayDispatchEvents, ReactionType } from 'discord-api-types/v10';
import { parseEmoji } from '#shared/platform/emoji.js';
import type { Emoji } from '#shared/platform/types.js';
import { maxReactions, unknownEmoji } from '../errors.js';
import { dispatch } from '../events.js';
import { requireMessage } from '../lookup.js';
import { readLimit, readSnowflakeQuery, type Route } from '../router.js';
import { BOT_USER, type SandboxState, type StoredMessage, userOf } from '../state.js';
import { isMember, memberView } from './members.js';

/** The platform allows this many distinct emojis on one message. */
const MAX_DISTINCT_REACTIONS = 20;

/** A keycap, or pictographs and flags with their modifiers and joiners; plain text is no emoji. */
const UNICODE_EMOJI =
  /^(?:[#*0-9]\uFE0F?\u20E3|(?:\p{Extended_Pictographic}|\p{Regional_Indicator})[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\uFE0F\u200D\u{E0020}-\u{E007F}]*)$/u;

/** The emoji of a reaction path segment (already URL-decoded) and the key reactions are kept under. */
export function emojiOf(segment: string): { key: string; emoji: Emoji } {
  const parts = parseEmoji(segment);
  if (parts.id) return { key: parts.id, emoji: { id: parts.id, name: parts.name, ...(parts.animated ? { animated: true } : {}) } };
  if (!UNICODE_EMOJI.test(segment)) throw unknownEmoji();
  return { key: segment, emoji: { id: null, name: segment } };
}

/** Where a reaction event happened: the message, its channel and guild. */
function placeOf(state: SandboxState, message: StoredMessage) {
  const guildId = state.channels.get(message.channel_id)?.guild_id;
  return { channel_id: message.channel_id, message_id: message.id, ...(guildId ? { guild_id: guildId } : {}) };
}

/** A user reacts; a 21st distinct emoji answers 400 (code 30010). */
export function addReaction(state: SandboxState, channelId: string, messageId: string, emojiSegment: string, userId: string): void {
  const message = requireMessage(state, channelId, messageId);
  const { key, emoji } = emojiOf(emojiSegment);
  let reaction = message.reactions.get(key);
  if (!reaction) {
    if (message.reactions.size >= MAX_DISTINCT_REACTIONS) throw maxReactions();
    message.reactions.set(key, (reaction = { emoji, users: new Set() }));
  }
  if (reaction.users.has(userId)) return;
  reaction.users.add(userId);
  const place = placeOf(state, message);
  const member = place.guild_id && isMember(state, place.guild_id, userId) ? { member: memberView(state, place.guild_id, userId) } : {};
  const d = { ...place, ...member, user_id: userId, emoji, message_author_id: message.author.id, burst: false, burst_colors: [], type: ReactionType.Normal };
  dispatch(state, { t: GatewayDispatchEvents.MessageReactionAdd, d });
}

/** A user's reaction goes; an emoji nobody uses any more leaves the message. */
export function removeReaction(state: SandboxState, channelId: string, messageId: string, emojiSegment: string, userId: string): void {
  const message = requireMessage(state, channelId, messageId);
  const { key } = emojiOf(emojiSegment);
  const reaction = message.reactions.get(key);
  if (!reaction?.users.delete(userId)) return;
  if (reaction.users.size === 0) message.reactions.delete(key);
  const d = { ...placeOf(state, message), user_id: userId, emoji: reaction.emoji, burst: false, type: ReactionType.Normal };
  dispatch(state, { t: GatewayDispatchEvents.MessageReactionRemove, d });
}

function listReactors(state: SandboxState, params: Record<string, string>, query: URLSearchParams) {
  const message = requireMessage(state, params.channel!, params.message!);
  const limit = readLimit(query, 25);
  const after = readSnowflakeQuery(query, 'after');
  const users = [...(message.reactions.get(emojiOf(params.emoji!).key)?.users ?? [])].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return users
    .filter((id) => after === null || BigInt(id) > BigInt(after))
    .slice(0, limit)
    .map(userOf);
}

const base = '/channels/:channel/messages/:message/reactions';

/** The reaction routes of the platform API; `@me` routes come before `:user` ones. */
export const reactionRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: `${base}/:emoji/@me`,
    handle: ({ state, params: p }) => (addReaction(state, p.channel!, p.message!, p.emoji!, BOT_USER.id), { status: 204 }),
  },
  {
    method: 'DELETE',
    pattern: `${base}/:emoji/@me`,
    handle: ({ state, params: p }) => (removeReaction(state, p.channel!, p.message!, p.emoji!, BOT_USER.id), { status: 204 }),
  },
  {
    method: 'DELETE',
    pattern: `${base}/:emoji/:user`,
    handle: ({ state, params: p }) => (removeReaction(state, p.channel!, p.message!, p.emoji!, p.user!), { status: 204 }),
  },
  {
    method: 'GET',
    pattern: `${base}/:emoji`,
    handle: ({ state, params, query }) => ({ status: 200, body: listReactors(state, params, query) }),
  },
  {
    method: 'DELETE',
    pattern: `${base}/:emoji`,
    handle: ({ state, params: p }) => {
      const message = requireMessage(state, p.channel!, p.message!);
      const { key, emoji } = emojiOf(p.emoji!);
      if (message.reactions.delete(key)) dispatch(state, { t: GatewayDispatchEvents.MessageReactionRemoveEmoji, d: { ...placeOf(state, message), emoji } });
      return { status: 204 };
    },
  },
  {
    method: 'DELETE',
    pattern: base,
    handle: ({ state, params: p }) => {
      const message = requireMessage(state, p.channel!, p.message!);
      message.reactions.clear();
      dispatch(state, { t: GatewayDispatchEvents.MessageReactionRemoveAll, d: placeOf(state, message) });
      return { status: 204 };
    },
  },
];
