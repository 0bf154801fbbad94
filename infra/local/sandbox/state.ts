/**
 * What the sandbox platform remembers, all in memory: channels and their
 * messages (with reactions and native polls), member roles, invites, DM
 * channels, interaction answers, injected faults and the request log.
 */
import type { APIApplicationCommand, APIInteraction, GatewayActivity, GatewayDispatchPayload, PresenceUpdateReceiveStatus } from 'discord-api-types/v10';
import { type SourcesState, createSourcesState } from './sources/model.js';
import type { ActionRow, AllowedMentions, Embed, Emoji, PollMedia, User } from '#shared/platform/types.js';

/** One dispatch, its event name and data as the platform sends them (the gateway adds `op` and `s`): what the state's listeners hear (events.ts dispatches). */
export type SandboxEvent = GatewayDispatchPayload extends infer P ? (P extends { t: infer T; d: infer D } ? { t: T; d: D } : never) : never;

/** The bot's own user: the author of everything the service posts, and `@me` in reaction routes. */
/**
 * The bot's own role in every guild (managed by its integration, as the
 * platform makes it on invite): just above the guild's other roles, below
 * forbidden ones; its bits are what the modules need unless a test sets
 * them (`PUT /_sandbox/guilds/{g}/roles/{BOT_ROLE_ID}`).
 */
export const BOT_ROLE_ID = '1000000000000000002';
export const BOT_USER: User = { id: '1000000000000000001', username: 'sandbox-bot', global_name: 'Sandbox Bot', discriminator: '0', avatar: null, bot: true };

/** One emoji's reactions on a message: who reacted, in the order they did. */
export interface StoredReaction {
  emoji: Emoji;
  users: Set<string>;
}

/** A native poll; votes are kept per answer so results can be counted at any time. */
export interface StoredPoll {
  question: PollMedia;
  answers: { answer_id: number; poll_media: PollMedia }[];
  expiry: Date;
  allow_multiselect: boolean;
  layout_type: number;
  /** Ended early through `/polls/{m}/expire`; a poll is also final once `expiry` has passed. */
  ended: boolean;
  votes: Map<number, Set<string>>;
}

export interface StoredMessage {
  id: string;
  channel_id: string;
  author: User;
  content: string;
  embeds: Embed[];
  components: ActionRow[];
  allowed_mentions?: AllowedMentions;
  flags: number;
  poll?: StoredPoll;
  timestamp: Date;
  edited_timestamp: Date | null;
  webhook_id?: string;
  /** The nonce the message was posted with (the platform enforces it on request). */
  nonce?: string;
  /** Keyed by the emoji's ID (custom) or its text (unicode), in the order first used. */
  reactions: Map<string, StoredReaction>;
}

export interface StoredChannel {
  id: string;
  type: number;
  guild_id: string | null;
  name: string | null;
  /** DM channels: the member at the other end. */
  recipient_id?: string;
  /** In posting order, which is also snowflake order. */
  messages: Map<string, StoredMessage>;
  /** Guild channels created through the platform route: their category. */
  parent_id?: string | null;
  /** When the channel was renamed (sandbox clock, ms), for the platform's limit of 2 renames in 10 minutes. */
  renames?: number[];
  /** Guild channels: who may do what here beyond their roles (type 0 a role, 1 a member; bits as decimal strings). */
  permission_overwrites?: { id: string; type: number; allow: string; deny: string }[];
}

export interface StoredInvite {
  code: string;
  channel_id: string;
  guild_id: string | null;
  inviter_id: string;
  max_age: number;
  max_uses: number;
  temporary: boolean;
  uses: number;
  created_at: Date;
}

/** A failure to answer instead of the real one, `times` more times. */
export interface Fault {
  id: number;
  method?: string;
  path: RegExp;
  status: number;
  times: number;
  retry_after?: number;
  body?: unknown;
  delay_ms?: number;
  /** Carry the request out first, then answer the fault: the effect stands though the caller reads a failure. */
  after_effect?: boolean;
}

/** A member's place in a guild whose membership is tracked (see `routes/members.ts`). */
export interface StoredMembership {
  joined_at: Date;
  nick: string | null;
}

/** A guild's name and, once a member joined through `/_sandbox`, exactly who is in it. */
export interface StoredGuild {
  id: string;
  name: string;
  /** null until the first join: until then every user counts as a member (joined long ago). */
  members: Map<string, StoredMembership> | null;
  /** The tracked members' IDs in ascending order, kept until the next join or leave (pages of a large guild are then a search, not a sort). */
  sorted?: string[];
  /** Set by `PUT /_sandbox/guilds/{g}/counts`: members online (else every member) and boosts (else 0). */
  presence_count?: number;
  boosts?: number;
  /** Role ID -> name, set by `PUT /_sandbox/guilds/{g}/roles/{r}`; `@everyone` (the guild's ID) is always there. */
  roles?: Map<string, string>;
  /** Role ID -> its permission bits (a decimal string), set with the role; `@everyone`'s under the guild's ID. */
  permissions?: Map<string, string>;
  /** Roles set up as managed by an integration (`managed: true`): no one may grant or take them. */
  managed?: Set<string>;
  /** The guild's owner (`PUT /_sandbox/guilds/{g}` `{owner_id}`): every permission; none when unset. */
  owner_id?: string;
  /** User ID -> permission bits given without a role (`PUT /_sandbox/guilds/{g}/members/{u}/permissions`), a decimal string. */
  grants?: Map<string, string>;
}

/** An authorization code a member's approval minted (oauth2.ts): single use, short-lived, bound to its redirect URI. */
export interface StoredAuthorizationCode {
  user_id: string;
  scopes: string[];
  redirect_uri: string;
  /** Sandbox clock (ms) after which the code no longer works. */
  expires_at: number;
  /** The access token the code was exchanged for: a second exchange revokes it. */
  access_token?: string;
}

/** A bearer token an authorization code or a refresh minted. */
export interface StoredAccessToken {
  user_id: string;
  scopes: string[];
  /** Sandbox clock (ms) after which the token answers 401. */
  expires_at: number;
  refresh_token: string;
}

/** A user's names, when a test gave them (otherwise derived from the ID by {@link userOf}). */
export interface StoredUser {
  username: string;
  global_name: string | null;
  bot: boolean;
}

export interface LoggedRequest {
  method: string;
  /** The path after `/api/v10` as sent (still URL-encoded), without the query. */
  path: string;
  status: number;
  time: string;
}

/** An interaction a member started (a click, a modal submitted), as dispatched, and its token for the callback and webhook routes. */
export interface StoredInteraction {
  interaction: APIInteraction;
  token: string;
}

/** A member's presence in a guild, as set by `PUT /_sandbox/guilds/{g}/presences/{u}`. */
export interface StoredPresence {
  status: PresenceUpdateReceiveStatus;
  activities: GatewayActivity[];
}

export interface SandboxState {
  channels: Map<string, StoredChannel>;
  /** Deleted channel IDs stay deleted: later use answers Unknown Channel, as on the platform. */
  deletedChannels: Set<string>;
  /** guild ID -> user ID -> role IDs. */
  members: Map<string, Map<string, Set<string>>>;
  /** `${guild}/${role}` pairs the bot may not grant or take (a role above the bot). */
  forbiddenRoles: Set<string>;
  invites: Map<string, StoredInvite>;
  /** recipient user ID -> DM channel ID. */
  dms: Map<string, string>;
  /** guild ID -> its name and tracked members. */
  guilds: Map<string, StoredGuild>;
  /** user ID -> names a test gave. */
  users: Map<string, StoredUser>;
  /** Users who do not accept DMs: a message in their DM channel answers 403 50007. */
  dmRefusers: Set<string>;
  /** `${application}/${token}` -> messages posted through that interaction webhook. */
  webhooks: Map<string, StoredMessage[]>;
  faults: Fault[];
  requests: LoggedRequest[];
  nextFaultId: number;
  /** Interaction callbacks, oldest first: what members were answered (messages, modals); `edited` once the original was edited through its webhook. */
  interactions: { interaction_id: string; token: string; type: number; data: Record<string, unknown>; time: string; edited?: string }[];
  /** guild ID -> its vanity URL code and how often it was used. */
  vanity: Map<string, { code: string; uses: number }>;
  /** The sandbox sources of the socials module (sources/). */
  sources: SourcesState;
  /** interaction ID -> the interactions members started by clicking and submitting. */
  started: Map<string, StoredInteraction>;
  /** guild ID -> user ID -> the voice channel they are in. */
  voice: Map<string, Map<string, string>>;
  /** guild ID -> user ID -> their presence (members not here are offline). */
  presences: Map<string, Map<string, StoredPresence>>;
  /** The privileged intents the application has (`PUT /_sandbox/application/intents`); all three by default. */
  privilegedIntents: number;
  /** command ID -> an application command, global (no `guild_id`) or of one guild (routes/commands.ts). */
  commands: Map<string, APIApplicationCommand>;
  /** OAuth2 (oauth2.ts): codes awaiting exchange, access tokens, and refresh token -> its access token. */
  oauth2: { codes: Map<string, StoredAuthorizationCode>; tokens: Map<string, StoredAccessToken>; refresh: Map<string, string> };
  /** Who hears every event (the gateway's sessions); kept across a reset, never in a snapshot. */
  listeners: Set<(event: SandboxEvent) => void>;
}

/** A state with nothing in it. */
export function createState(): SandboxState {
  return {
    channels: new Map(),
    deletedChannels: new Set(),
    members: new Map(),
    forbiddenRoles: new Set(),
    invites: new Map(),
    dms: new Map(),
    guilds: new Map(),
    users: new Map(),
    dmRefusers: new Set(),
    webhooks: new Map(),
    faults: [],
    requests: [],
    nextFaultId: 1,
    interactions: [],
    vanity: new Map(),
    sources: createSourcesState(),
    started: new Map(),
    voice: new Map(),
    presences: new Map(),
    // GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
    privilegedIntents: (1 << 1) | (1 << 8) | (1 << 15),
    commands: new Map(),
    oauth2: { codes: new Map(), tokens: new Map(), refresh: new Map() },
    listeners: new Set(),
  };
}

/** Empties the state in place, so every holder of the object sees the reset. */
export function resetState(state: SandboxState): void {
  Object.assign(state, { ...createState(), listeners: state.listeners });
}

/** The platform's epoch (2015-01-01), from which snowflake timestamps count. */
const PLATFORM_EPOCH = 1420070400000n;
let lastSnowflake = 0n;

/**
 * A new snowflake like the platform's: milliseconds since its epoch in the
 * high bits, an increment in the low 12, so IDs are 18-19 digits, unique and
 * ordered by creation.
 */
export function mintSnowflake(now = Date.now()): string {
  const candidate = (BigInt(now) - PLATFORM_EPOCH) << 22n;
  lastSnowflake = candidate > lastSnowflake ? candidate : lastSnowflake + 1n;
  return lastSnowflake.toString();
}

/** A member as the sandbox names them: it knows IDs only. */
export function userOf(id: string): User {
  return id === BOT_USER.id ? BOT_USER : { id, username: `member-${id.slice(-4)}`, global_name: null, discriminator: '0', avatar: null };
}

/** The role set of a member, created empty on first use (every user counts as a member). */
export function rolesOf(state: SandboxState, guildId: string, userId: string): Set<string> {
  let guild = state.members.get(guildId);
  if (!guild) state.members.set(guildId, (guild = new Map()));
  let roles = guild.get(userId);
  if (!roles) guild.set(userId, (roles = new Set()));
  return roles;
}
