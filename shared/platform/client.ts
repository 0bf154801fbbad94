/**
 * The platform REST client: one typed function per Discord HTTP API v10 call
 * the service makes. Retries, 429 handling and the 502 mapping live in the
 * transport; this file only knows routes and shapes.
 */
import type {
  RESTDeleteAPIChannelResult,
  RESTGetAPIGuildChannelsResult,
  RESTGetAPIGuildInvitesResult,
  RESTGetAPIGuildVanityUrlResult,
  RESTGetAPIInviteResult,
  RESTGetAPIGuildMembersResult,
  RESTGetAPIGuildResult,
  RESTGetAPIGuildRolesResult,
  RESTGetAPIUserResult,
  RESTGetCurrentApplicationResult,
  RESTPatchAPIChannelJSONBody,
  RESTPatchAPIChannelResult,
  RESTPostAPIGuildChannelJSONBody,
  RESTPostAPIGuildChannelResult,
  RESTPostAPIInteractionCallbackJSONBody,
} from 'discord-api-types/v10';
import { type EmojiInput, emojiSegment } from './emoji.js';
import { messageNonce } from './nonce.js';
import { createTransport, type PlatformRequest, type Send, type TransportOptions } from './transport.js';
import {
  type Channel,
  type GuildMember,
  type Invite,
  type InviteCreate,
  type Message,
  type MessageCreate,
  type MessageEdit,
  MessageFlags,
  type Snowflake,
  type User,
} from './types.js';

/** Every platform call the service makes. Each throws a 502 `PlatformError` when the call fails. */
export interface PlatformClient {
  /** Any other call, through the same retries and error mapping. */
  request<T>(request: PlatformRequest): Promise<T>;

  /**
   * POST /channels/{c}/messages, with a nonce the platform enforces (the
   * body's own, else one derived from the keyed call in progress, else a
   * fresh one: shared/platform/nonce.ts), so a resend after a 5xx or a
   * timeout, or a repeat of the keyed call, answers the message the first
   * try made instead of posting another.
   */
  createMessage(channelId: Snowflake, body: MessageCreate): Promise<Message>;
  /** GET /channels/{c}/messages/{m} */
  getMessage(channelId: Snowflake, messageId: Snowflake): Promise<Message>;
  /** GET /channels/{c}/messages, newest first (limit 1..100, default 50). */
  getMessages(channelId: Snowflake, query?: { limit?: number; before?: Snowflake; after?: Snowflake }): Promise<Message[]>;
  /** PATCH /channels/{c}/messages/{m} */
  editMessage(channelId: Snowflake, messageId: Snowflake, body: MessageEdit): Promise<Message>;
  /** DELETE /channels/{c}/messages/{m} */
  deleteMessage(channelId: Snowflake, messageId: Snowflake): Promise<void>;

  /** PUT /channels/{c}/messages/{m}/reactions/{emoji}/@me */
  addOwnReaction(channelId: Snowflake, messageId: Snowflake, emoji: EmojiInput): Promise<void>;
  /** DELETE /channels/{c}/messages/{m}/reactions/{emoji}/@me */
  deleteOwnReaction(channelId: Snowflake, messageId: Snowflake, emoji: EmojiInput): Promise<void>;
  /** DELETE /channels/{c}/messages/{m}/reactions/{emoji}/{user} */
  deleteUserReaction(channelId: Snowflake, messageId: Snowflake, emoji: EmojiInput, userId: Snowflake): Promise<void>;
  /** DELETE /channels/{c}/messages/{m}/reactions/{emoji} */
  deleteAllReactionsForEmoji(channelId: Snowflake, messageId: Snowflake, emoji: EmojiInput): Promise<void>;
  /** DELETE /channels/{c}/messages/{m}/reactions */
  deleteAllReactions(channelId: Snowflake, messageId: Snowflake): Promise<void>;
  /** GET /channels/{c}/messages/{m}/reactions/{emoji} (limit 1..100, default 25; page with `after`). */
  getReactions(channelId: Snowflake, messageId: Snowflake, emoji: EmojiInput, query?: { limit?: number; after?: Snowflake }): Promise<User[]>;

  /** PUT /guilds/{g}/members/{u}/roles/{r} */
  addMemberRole(guildId: Snowflake, userId: Snowflake, roleId: Snowflake): Promise<void>;
  /** DELETE /guilds/{g}/members/{u}/roles/{r} */
  removeMemberRole(guildId: Snowflake, userId: Snowflake, roleId: Snowflake): Promise<void>;
  /** GET /guilds/{g}/members/{u} */
  getMember(guildId: Snowflake, userId: Snowflake): Promise<GuildMember>;
  /** GET /guilds/{g}?with_counts=true: the guild with `approximate_member_count`. */
  getGuild(guildId: Snowflake): Promise<RESTGetAPIGuildResult>;
  /** GET /guilds/{g}/members: members by ascending user ID after `after` (limit 1..1000). */
  listMembers(guildId: Snowflake, query: { limit: number; after?: Snowflake }): Promise<RESTGetAPIGuildMembersResult>;
  /** GET /users/{u} */
  getUser(userId: Snowflake): Promise<RESTGetAPIUserResult>;
  /** GET /guilds/{g}/channels */
  getGuildChannels(guildId: Snowflake): Promise<RESTGetAPIGuildChannelsResult>;
  /** POST /guilds/{g}/channels */
  createGuildChannel(guildId: Snowflake, body: RESTPostAPIGuildChannelJSONBody): Promise<RESTPostAPIGuildChannelResult>;
  /** PATCH /channels/{c}: renames a channel (the platform allows 2 renames per channel in 10 minutes). */
  renameChannel(channelId: Snowflake, name: string): Promise<RESTPatchAPIChannelResult>;
  /** DELETE /channels/{c} */
  deleteChannel(channelId: Snowflake): Promise<RESTDeleteAPIChannelResult>;
  /** GET /guilds/{g}/roles */
  getGuildRoles(guildId: Snowflake): Promise<RESTGetAPIGuildRolesResult>;

  /** POST /channels/{c}/invites */
  createChannelInvite(channelId: Snowflake, body?: InviteCreate): Promise<Invite>;
  /** GET /invites/{code}: the invite with its guild. */
  getInvite(code: string): Promise<RESTGetAPIInviteResult>;
  /** DELETE /invites/{code}; answers the deleted invite. */
  deleteInvite(code: string): Promise<Invite>;
  /** GET /channels/{c}/invites, with metadata (uses, inviter ...). */
  getChannelInvites(channelId: Snowflake): Promise<Invite[]>;
  /**
   * POST /interactions/{interaction_id}/{token}/callback: answers an
   * interaction (a message, a modal ...). It takes no nonce, so it is not
   * resent after a 5xx or a timeout that may have landed.
   */
  interactionCallback(interactionId: Snowflake, token: string, body: RESTPostAPIInteractionCallbackJSONBody): Promise<void>;
  /** GET /guilds/{g}/invites, with metadata (uses, inviter, max_uses, expiry). */
  getGuildInvites(guildId: Snowflake): Promise<RESTGetAPIGuildInvitesResult>;
  /** GET /guilds/{g}/vanity-url: the vanity code (null when none) and its uses. */
  getVanityUrl(guildId: Snowflake): Promise<RESTGetAPIGuildVanityUrlResult>;

  /** POST /users/@me/channels: the DM channel with a member (the same one on every call). */
  createDm(recipientId: Snowflake): Promise<Channel>;
  /** POST /channels/{c}/polls/{m}/expire: ends a platform-native poll now; answers the message. */
  endPoll(channelId: Snowflake, messageId: Snowflake): Promise<Message>;
  /** GET /channels/{c} */
  getChannel(channelId: Snowflake): Promise<Channel>;
  /** GET /applications/@me: the bot's application (its `flags` say which privileged intents it has). */
  getApplication(): Promise<RESTGetCurrentApplicationResult>;

  /**
   * POST /webhooks/{application_id}/{token}: answers the member of an
   * interaction with an ephemeral message (flags 64) that pings no one.
   * Webhook creates take no nonce: not resent after an answer that may have landed.
   */
  answerInteraction(applicationId: Snowflake, token: string, body: string | MessageCreate): Promise<void>;
  /**
   * POST /webhooks/{application_id}/{token}: a message every member of the
   * channel sees, as an interaction's answer (its flags and allowed mentions as given).
   * Not resent after an answer that may have landed (no nonce on webhooks).
   */
  postInteractionMessage(applicationId: Snowflake, token: string, body: MessageCreate): Promise<Message>;
}

const seg = encodeURIComponent;

/**
 * POST /webhooks/{application_id}/{token} answering one member: ephemeral
 * (flags 64), pinging no one. Its own function so the error middleware can
 * send it over a bare transport without bundling the whole client.
 */
export function memberAnswer(applicationId: Snowflake, token: string, body: string | MessageCreate): PlatformRequest {
  const base: MessageCreate = typeof body === 'string' ? { content: body } : body;
  return {
    method: 'POST',
    path: `/webhooks/${seg(applicationId)}/${seg(token)}`,
    body: { allowed_mentions: { parse: [] }, ...base, flags: (base.flags ?? 0) | MessageFlags.Ephemeral },
  };
}

function reactionPath(channelId: Snowflake, messageId: Snowflake, emoji?: EmojiInput): string {
  const base = `/channels/${seg(channelId)}/messages/${seg(messageId)}/reactions`;
  return emoji === undefined ? base : `${base}/${emojiSegment(emoji)}`;
}

/** Builds a client over a transport; `options` replace the defaults (tests shorten the waits). */
export function createPlatformClient(options: TransportOptions = {}): PlatformClient {
  const send: Send = createTransport(options);
  const message = (c: Snowflake, m: Snowflake) => `/channels/${seg(c)}/messages/${seg(m)}`;
  const role = (g: Snowflake, u: Snowflake, r: Snowflake) => `/guilds/${seg(g)}/members/${seg(u)}/roles/${seg(r)}`;

  return {
    request: (request) => send(request),

    createMessage: (c, body) =>
      send({ method: 'POST', path: `/channels/${seg(c)}/messages`, body: { ...body, nonce: body.nonce ?? messageNonce(c), enforce_nonce: true } }),
    getMessage: (c, m) => send({ method: 'GET', path: message(c, m) }),
    getMessages: (c, query) => send({ method: 'GET', path: `/channels/${seg(c)}/messages`, query }),
    editMessage: (c, m, body) => send({ method: 'PATCH', path: message(c, m), body }),
    deleteMessage: (c, m) => send({ method: 'DELETE', path: message(c, m) }),

    addOwnReaction: (c, m, e) => send({ method: 'PUT', path: `${reactionPath(c, m, e)}/@me` }),
    deleteOwnReaction: (c, m, e) => send({ method: 'DELETE', path: `${reactionPath(c, m, e)}/@me` }),
    deleteUserReaction: (c, m, e, u) => send({ method: 'DELETE', path: `${reactionPath(c, m, e)}/${seg(u)}` }),
    deleteAllReactionsForEmoji: (c, m, e) => send({ method: 'DELETE', path: reactionPath(c, m, e) }),
    deleteAllReactions: (c, m) => send({ method: 'DELETE', path: reactionPath(c, m) }),
    getReactions: (c, m, e, query) => send({ method: 'GET', path: reactionPath(c, m, e), query }),

    addMemberRole: (g, u, r) => send({ method: 'PUT', path: role(g, u, r) }),
    removeMemberRole: (g, u, r) => send({ method: 'DELETE', path: role(g, u, r) }),
    getMember: (g, u) => send({ method: 'GET', path: `/guilds/${seg(g)}/members/${seg(u)}` }),
    getGuild: (g) => send({ method: 'GET', path: `/guilds/${seg(g)}`, query: { with_counts: true } }),
    listMembers: (g, query) => send({ method: 'GET', path: `/guilds/${seg(g)}/members`, query }),
    getUser: (u) => send({ method: 'GET', path: `/users/${seg(u)}` }),
    getGuildChannels: (g) => send({ method: 'GET', path: `/guilds/${seg(g)}/channels` }),
    createGuildChannel: (g, body) => send({ method: 'POST', path: `/guilds/${seg(g)}/channels`, body }),
    renameChannel: (c, name) => send({ method: 'PATCH', path: `/channels/${seg(c)}`, body: { name } satisfies RESTPatchAPIChannelJSONBody }),
    deleteChannel: (c) => send({ method: 'DELETE', path: `/channels/${seg(c)}` }),
    getGuildRoles: (g) => send({ method: 'GET', path: `/guilds/${seg(g)}/roles` }),

    createChannelInvite: (c, body = {}) => send({ method: 'POST', path: `/channels/${seg(c)}/invites`, body }),
    getInvite: (code) => send({ method: 'GET', path: `/invites/${seg(code)}` }),
    deleteInvite: (code) => send({ method: 'DELETE', path: `/invites/${seg(code)}` }),
    getChannelInvites: (c) => send({ method: 'GET', path: `/channels/${seg(c)}/invites` }),
    getGuildInvites: (g) => send({ method: 'GET', path: `/guilds/${seg(g)}/invites` }),
    interactionCallback: (id, token, body) => send({ method: 'POST', path: `/interactions/${seg(id)}/${seg(token)}/callback`, body }),
    getVanityUrl: (g) => send({ method: 'GET', path: `/guilds/${seg(g)}/vanity-url` }),

    createDm: (recipientId) => send({ method: 'POST', path: '/users/@me/channels', body: { recipient_id: recipientId }, idempotent: true }),
    endPoll: (c, m) => send({ method: 'POST', path: `/channels/${seg(c)}/polls/${seg(m)}/expire` }),
    getChannel: (c) => send({ method: 'GET', path: `/channels/${seg(c)}` }),
    getApplication: () => send({ method: 'GET', path: '/applications/@me' }),

    answerInteraction: (applicationId, token, body) => send(memberAnswer(applicationId, token, body)),
    postInteractionMessage: (applicationId, token, body) => send({ method: 'POST', path: `/webhooks/${seg(applicationId)}/${seg(token)}`, body }),
  };
}

/** The client with the default settings (base URL and token from the environment at each call). */
export const platform: PlatformClient = /* @__PURE__ */ createPlatformClient();

export { emojiPath, parseEmoji, emojiSegment, type EmojiInput } from './emoji.js';
export { PlatformError, PlatformCode, isPlatformError, isPlatformNotFound } from './platform-error.js';
export type { TransportOptions, PlatformRequest, HttpMethod } from './transport.js';
export { nonceFrom } from './nonce.js';
