/**
 * Guilds, members and users of the sandbox platform: who is in a guild and
 * since when, what they are called, and whether they accept DMs.
 *
 * A guild's membership is untracked until a member joins through the control
 * routes: until then every user counts as a member who joined long ago (so
 * modules that only grant roles need no set-up). From the first join on, the
 * guild holds exactly the members who joined and did not leave; anyone else
 * is Unknown Member (404, code 10007) on every member route, role changes
 * included.
 *
 * Platform routes (under `/api/v10`):
 *   GET /guilds/{g}?with_counts=true      the guild, `approximate_member_count` with counts
 *   GET /guilds/{g}/members?limit=&after= members by ascending user ID (limit 1..1000, default 1)
 *   GET /guilds/{g}/members/{u}           one member (`joined_at`, `nick`, `roles`, `user`); the bot is in every guild, holding its own role
 *   GET /users/@me/guilds                 (oauth2.ts) the guilds the bot, or a bearer token's member, is in
 *   GET /users/{u}                        a user
 *   POST /channels/{dm}/messages          403 code 50007 when the DM's recipient refuses DMs
 *
 * Control routes (under `/_sandbox`):
 *   PUT  /guilds/{g}                      `{name, owner_id?}`: names the guild (and says who owns it)
 *   POST /guilds/{g}/members/{u}/join     `{joined_at?, nick?, username?, global_name?, bot?, roles?}`:
 *                                         the user joins (now unless `joined_at`, an ISO time); answers the member
 *   POST /guilds/{g}/members/join-many    `{user_ids, joined_at?, roles?}`: up to 10,000 users join at once
 *                                         (a large guild for tests and the bench); answers `{members}`, the guild's count
 *   POST /guilds/{g}/members/{u}/leave    the member leaves (their roles go too); 404 10007 when not a member
 *   PUT  /users/{u}                       `{username?, global_name?, bot?}`: the user's names
 *   POST /users/{u}/refuse-dms            the user stops accepting DMs; DELETE: accepts them again
 */
import {
  type APIGuild,
  type APIGuildMember,
  type APIRole,
  type APIUser,
  type APIVoiceState,
  type GatewayGuildCreateDispatchData,
  type GatewayPresenceUpdate,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  type GuildMemberFlags,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  type GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
} from 'discord-api-types/v10';
import { FormErrors, cannotMessageUser, invalidField, unknownMember } from '../errors.js';
import { dispatch } from '../events.js';
import { readSnowflakeQuery, type Route } from '../router.js';
import { BOT_ROLE_ID, BOT_USER, type SandboxState, type StoredGuild, type StoredMembership, type StoredPresence, rolesOf, userOf } from '../state.js';
import { channelView } from '../views.js';

/** When members of an untracked guild joined: the platform's epoch, long before any test. */
const LONG_AGO = new Date('2015-01-01T00:00:00.000Z');
const MAX_MEMBERS_PAGE = 1000;

const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** The guild's record, made on first use with a name derived from its ID. */
export function guildOf(state: SandboxState, guildId: string): StoredGuild {
  let guild = state.guilds.get(guildId);
  if (!guild) state.guilds.set(guildId, (guild = { id: guildId, name: `guild-${guildId.slice(-4)}`, members: null }));
  return guild;
}

/** Whether the user is in the guild (always, in an untracked guild). */
export function isMember(state: SandboxState, guildId: string, userId: string): boolean {
  const members = state.guilds.get(guildId)?.members;
  // The bot is in every guild of the sandbox (it was invited to each).
  return !members || members.has(userId) || userId === BOT_USER.id;
}

/** 404 Unknown Member unless the user is in the guild. */
export function requireMember(state: SandboxState, guildId: string, userId: string): void {
  if (!isMember(state, guildId, userId)) throw unknownMember();
}

/** A user as the platform answers it, with the names a test gave. */
export function userView(state: SandboxState, userId: string): APIUser {
  const named = state.users.get(userId);
  const base = userOf(userId);
  return {
    id: userId,
    username: named?.username ?? base.username,
    global_name: named ? named.global_name : (base.global_name ?? null),
    discriminator: '0',
    avatar: null,
    ...((named?.bot ?? base.bot) ? { bot: true } : {}),
  };
}

/** A member as `GET /guilds/{g}/members/{u}` answers it. */
export function memberView(state: SandboxState, guildId: string, userId: string): APIGuildMember {
  const membership = state.guilds.get(guildId)?.members?.get(userId);
  return {
    user: userView(state, userId),
    nick: membership?.nick ?? null,
    avatar: null,
    // Read without creating: looking at a member must not make them one.
    roles: [...(userId === BOT_USER.id ? [BOT_ROLE_ID] : []), ...(state.members.get(guildId)?.get(userId) ?? [])],
    joined_at: (membership?.joined_at ?? LONG_AGO).toISOString(),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
  };
}

/** Who is in the guild, by ascending user ID (a tracked guild keeps the order until its membership changes). */
function memberIds(state: SandboxState, guildId: string): string[] {
  const guild = state.guilds.get(guildId);
  if (guild?.members) return (guild.sorted ??= [...guild.members.keys()].sort(byId));
  return [...(state.members.get(guildId)?.keys() ?? [])].sort(byId);
}

/** The index of the first ID above `after` in ascending IDs. */
function firstAbove(ids: readonly string[], after: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byId(ids[mid]!, after) > 0) high = mid;
    else low = mid + 1;
  }
  return low;
}

type GuildView = Pick<APIGuild, 'id' | 'name' | 'icon' | 'owner_id' | 'roles' | 'emojis' | 'features'> &
  Partial<Pick<APIGuild, 'approximate_member_count' | 'approximate_presence_count' | 'premium_subscription_count'>>;

function guildView(state: SandboxState, guildId: string, withCounts: boolean): GuildView {
  const guild = guildOf(state, guildId);
  const view: GuildView = { id: guild.id, name: guild.name, icon: null, owner_id: guild.owner_id ?? '0', roles: [], emojis: [], features: [] };
  if (!withCounts) return view;
  const count = memberIds(state, guildId).length;
  return { ...view, approximate_member_count: count, approximate_presence_count: guild.presence_count ?? count, premium_subscription_count: guild.boosts ?? 0 };
}

function listMembers(state: SandboxState, guildId: string, query: URLSearchParams): APIGuildMember[] {
  const text = query.get('limit');
  const limit = text === null ? 1 : Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MEMBERS_PAGE) {
    throw invalidField(['limit'], 'NUMBER_TYPE_MAX', `int value should be between 1 and ${MAX_MEMBERS_PAGE}.`);
  }
  const after = readSnowflakeQuery(query, 'after') ?? '0';
  const ids = memberIds(state, guildId);
  const from = firstAbove(ids, after);
  return ids.slice(from, from + limit).map((id) => memberView(state, guildId, id));
}

/** 403 code 50007 when the channel is a DM with someone who refuses DMs (called before the message is posted). */
export function assertDmAccepted(state: SandboxState, channelId: string): void {
  const recipient = state.channels.get(channelId)?.recipient_id;
  if (recipient && state.dmRefusers.has(recipient)) throw cannotMessageUser();
}

const isSnowflake = (value: unknown) => typeof value === 'string' && /^[0-9]{1,20}$/.test(value);

function nameUser(state: SandboxState, userId: string, body: Record<string, unknown>, errors: FormErrors): void {
  for (const field of ['username', 'global_name', 'nick'] as const) {
    if (body[field] !== undefined && body[field] !== null && typeof body[field] !== 'string') errors.add([field], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  if (body.bot !== undefined && typeof body.bot !== 'boolean') errors.add(['bot'], 'BASE_TYPE_BOOLEAN', 'Must be a boolean.');
  errors.throwIfAny();
  if (body.username === undefined && body.global_name === undefined && body.bot === undefined) return;
  const current = userView(state, userId);
  state.users.set(userId, {
    username: typeof body.username === 'string' ? body.username : current.username,
    global_name: body.global_name === undefined ? current.global_name : ((body.global_name as string | null) ?? null),
    bot: typeof body.bot === 'boolean' ? body.bot : Boolean(current.bot),
  });
}

/** The guild's members, tracked from now on: whoever held roles before stays a member, joined long ago. */
function trackedMembers(state: SandboxState, guildId: string): Map<string, StoredMembership> {
  const guild = guildOf(state, guildId);
  guild.members ??= new Map([...(state.members.get(guildId)?.keys() ?? [])].map((id) => [id, { joined_at: LONG_AGO, nick: null }]));
  // The membership changes: the order is made again on the next page.
  guild.sorted = undefined;
  return guild.members;
}

/** A user joins a guild; the guild's membership is tracked from now on. */
/** A user joins the guild (now, unless `joined_at`); used by the control routes of members and invites. */
export function join(state: SandboxState, guildId: string, userId: string, input: unknown): APIGuildMember {
  const body = fieldsOf(input);
  const errors = new FormErrors();
  const joinedAt = body.joined_at === undefined ? new Date() : new Date(String(body.joined_at));
  if (Number.isNaN(joinedAt.getTime())) errors.add(['joined_at'], 'DATE_TYPE_PARSE', 'Must be an ISO 8601 time.');
  if (body.roles !== undefined && !(Array.isArray(body.roles) && body.roles.every(isSnowflake))) {
    errors.add(['roles'], 'BASE_TYPE_ARRAY', 'Must be an array of snowflake strings.');
  }
  nameUser(state, userId, body, errors);
  const members = trackedMembers(state, guildId);
  const joined = !members.has(userId);
  members.set(userId, { joined_at: joinedAt, nick: typeof body.nick === 'string' ? body.nick : null });
  const roles = rolesOf(state, guildId, userId);
  roles.clear();
  for (const role of (body.roles as string[] | undefined) ?? []) roles.add(role);
  if (!joined) return memberUpdated(state, guildId, userId);
  const member = memberView(state, guildId, userId);
  dispatch(state, { t: GatewayDispatchEvents.GuildMemberAdd, d: { ...member, guild_id: guildId } });
  return member;
}

/** A member's roles (or names) changed: GUILD_MEMBER_UPDATE with the member as they are now. */
export function memberUpdated(state: SandboxState, guildId: string, userId: string): APIGuildMember {
  const member = memberView(state, guildId, userId);
  dispatch(state, {
    t: GatewayDispatchEvents.GuildMemberUpdate,
    d: { ...member, avatar: member.avatar ?? null, banner: member.banner ?? null, guild_id: guildId },
  });
  return member;
}

const MAX_JOIN_MANY = 10_000;

/** Many users join at once, at `joined_at` (else now), holding `roles`: how a test or the bench makes a large guild. */
function joinMany(state: SandboxState, guildId: string, input: unknown): { members: number } {
  const body = fieldsOf(input);
  const errors = new FormErrors();
  const ids = body.user_ids;
  if (!Array.isArray(ids) || ids.length > MAX_JOIN_MANY || !ids.every(isSnowflake)) {
    errors.add(['user_ids'], 'BASE_TYPE_ARRAY', `Must be an array of at most ${MAX_JOIN_MANY} snowflake strings.`);
  }
  const joinedAt = body.joined_at === undefined ? new Date() : new Date(String(body.joined_at));
  if (Number.isNaN(joinedAt.getTime())) errors.add(['joined_at'], 'DATE_TYPE_PARSE', 'Must be an ISO 8601 time.');
  if (body.roles !== undefined && !(Array.isArray(body.roles) && body.roles.every(isSnowflake))) {
    errors.add(['roles'], 'BASE_TYPE_ARRAY', 'Must be an array of snowflake strings.');
  }
  errors.throwIfAny();
  const members = trackedMembers(state, guildId);
  const roles = (body.roles as string[] | undefined) ?? [];
  for (const id of ids as string[]) {
    members.set(id, { joined_at: joinedAt, nick: null });
    if (roles.length > 0 || state.members.get(guildId)?.has(id)) {
      const held = rolesOf(state, guildId, id);
      held.clear();
      for (const role of roles) held.add(role);
    }
  }
  return { members: members.size };
}

function leave(state: SandboxState, guildId: string, userId: string): void {
  requireMember(state, guildId, userId);
  const user = userView(state, userId);
  trackedMembers(state, guildId).delete(userId);
  state.members.get(guildId)?.delete(userId);
  state.voice.get(guildId)?.delete(userId);
  state.presences.get(guildId)?.delete(userId);
  // Rights given without a role go with the member, as their roles do.
  state.guilds.get(guildId)?.grants?.delete(userId);
  dispatch(state, { t: GatewayDispatchEvents.GuildMemberRemove, d: { guild_id: guildId, user } });
}

/** What the bot's role holds unless a test sets it: what the modules need (view, send, embed, react, manage messages and roles, history, polls, channels, guild, invites). */
export const BOT_ROLE_PERMISSIONS = String(
  (1n << 0n) | (1n << 4n) | (1n << 5n) | (1n << 6n) | (1n << 10n) | (1n << 11n) | (1n << 13n) | (1n << 14n) | (1n << 16n) | (1n << 28n) | (1n << 49n),
);

/**
 * The guild's roles as the platform lists them, `@everyone` first (position
 * 0), then the roles set up, then the bot's own role, then the roles marked
 * forbidden: those are above the bot.
 */
export function rolesOfGuild(state: SandboxState, guildId: string): APIRole[] {
  const guild = guildOf(state, guildId);
  const named = [...(guild.roles ?? new Map<string, string>())].filter(([id]) => id !== BOT_ROLE_ID);
  const above = (id: string) => state.forbiddenRoles.has(`${guildId}/${id}`);
  const botName = guild.roles?.get(BOT_ROLE_ID) ?? BOT_USER.username;
  const all: [string, string][] = [[guildId, '@everyone'], ...named.filter(([id]) => !above(id)), [BOT_ROLE_ID, botName], ...named.filter(([id]) => above(id))];
  return all.map(([id, name], position) => ({
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    position,
    permissions: guild.permissions?.get(id) ?? (id === BOT_ROLE_ID ? BOT_ROLE_PERMISSIONS : '0'),
    managed: id === BOT_ROLE_ID || (guild.managed?.has(id) ?? false),
    mentionable: false,
    flags: 0 as APIRole['flags'],
  }));
}

/** A member's voice state as the platform sends it (`channel_id` null: not in voice). */
export function voiceStateView(guildId: string, userId: string, channelId: string | null): APIVoiceState {
  return {
    guild_id: guildId,
    channel_id: channelId,
    user_id: userId,
    session_id: `voice-${userId}`,
    deaf: false,
    mute: false,
    self_deaf: false,
    self_mute: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** A member's presence in a guild as PRESENCE_UPDATE carries it. */
export function presenceView(guildId: string, userId: string, presence: StoredPresence): GatewayPresenceUpdate {
  return { user: { id: userId }, guild_id: guildId, status: presence.status, activities: presence.activities, client_status: { desktop: presence.status } };
}

/** GUILD_CREATE's data as the platform sends it to a session with these intents (members and presences need their intents). */
export function guildCreateData(state: SandboxState, guildId: string, intents: number): GatewayGuildCreateDispatchData {
  const stored = state.guilds.get(guildId);
  const ids = memberIds(state, guildId);
  const voice = state.voice.get(guildId) ?? new Map<string, string>();
  const shownMembers = intents & GatewayIntentBits.GuildMembers ? ids : [BOT_USER.id];
  return {
    id: guildId,
    name: stored?.name ?? `guild-${guildId.slice(-4)}`,
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: stored?.owner_id ?? '0',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: GuildVerificationLevel.None,
    default_message_notifications: GuildDefaultMessageNotifications.AllMessages,
    explicit_content_filter: GuildExplicitContentFilter.Disabled,
    roles: rolesOfGuild(state, guildId),
    emojis: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    vanity_url_code: state.vanity.get(guildId)?.code ?? null,
    description: null,
    banner: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: stored?.boosts ?? 0,
    preferred_locale: Locale.EnglishUS,
    public_updates_channel_id: null,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    hub_type: null,
    safety_alerts_channel_id: null,
    incidents_data: null,
    joined_at: new Date(0).toISOString(),
    large: false,
    member_count: ids.length,
    voice_states: intents & GatewayIntentBits.GuildVoiceStates ? [...voice].map(([userId, channelId]) => voiceStateView(guildId, userId, channelId)) : [],
    members: shownMembers.map((id) => memberView(state, guildId, id)),
    channels: [...state.channels.values()]
      .filter((c) => c.guild_id === guildId && !state.deletedChannels.has(c.id))
      .map(channelView) as GatewayGuildCreateDispatchData['channels'],
    threads: [],
    presences:
      intents & GatewayIntentBits.GuildPresences ? [...(state.presences.get(guildId) ?? [])].map(([userId, p]) => presenceView(guildId, userId, p)) : [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/** Every intent, for a guild's view before the gateway fits it to a session. */
const ALL_INTENTS = GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.GuildVoiceStates;

/** The guild, member-list and user routes of the platform API. */
export const memberRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/guilds/:guild',
    handle: ({ state, params, query }) => ({ status: 200, body: guildView(state, params.guild!, query.get('with_counts') === 'true') }),
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/members',
    handle: ({ state, params, query }) => ({ status: 200, body: listMembers(state, params.guild!, query) }),
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/members/:user',
    handle: ({ state, params }) => (requireMember(state, params.guild!, params.user!), { status: 200, body: memberView(state, params.guild!, params.user!) }),
  },
  { method: 'GET', pattern: '/users/:user', handle: ({ state, params }) => ({ status: 200, body: userView(state, params.user!) }) },
];

const noContent = { status: 204 } as const;
const refuseDms = '/users/:user/refuse-dms';

/** The member control routes; patterns are relative to `/_sandbox`. */
export const memberControlRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: '/guilds/:guild',
    handle: ({ state, params, body }) => {
      const { name, owner_id: ownerId } = fieldsOf(body);
      const errors = new FormErrors();
      if (typeof name !== 'string' || name === '') errors.add(['name'], 'BASE_TYPE_REQUIRED', 'A non-empty string is required.');
      if (ownerId !== undefined && !isSnowflake(ownerId)) errors.add(['owner_id'], 'NUMBER_TYPE_COERCE', "The owner's user ID, a snowflake string.");
      errors.throwIfAny();
      const isNew = !state.guilds.has(params.guild!);
      const guild = guildOf(state, params.guild!);
      guild.name = name as string;
      if (typeof ownerId === 'string') guild.owner_id = ownerId;
      // A guild added after the bot identified: its GUILD_CREATE now (the gateway builds it per session's intents).
      if (isNew) dispatch(state, { t: GatewayDispatchEvents.GuildCreate, d: guildCreateData(state, params.guild!, ALL_INTENTS) });
      return { status: 200, body: guildView(state, params.guild!, true) };
    },
  },
  {
    method: 'POST',
    pattern: '/guilds/:guild/members/:user/join',
    handle: ({ state, params, body }) => ({ status: 200, body: join(state, params.guild!, params.user!, body) }),
  },
  {
    method: 'POST',
    pattern: '/guilds/:guild/members/join-many',
    handle: ({ state, params, body }) => ({ status: 200, body: joinMany(state, params.guild!, body) }),
  },
  { method: 'POST', pattern: '/guilds/:guild/members/:user/leave', handle: ({ state, params }) => (leave(state, params.guild!, params.user!), noContent) },
  {
    method: 'PUT',
    pattern: '/users/:user',
    handle: ({ state, params, body }) => (
      nameUser(state, params.user!, fieldsOf(body), new FormErrors()), { status: 200, body: userView(state, params.user!) }
    ),
  },
  { method: 'POST', pattern: refuseDms, handle: ({ state, params }) => (state.dmRefusers.add(params.user!), noContent) },
  { method: 'DELETE', pattern: refuseDms, handle: ({ state, params }) => (state.dmRefusers.delete(params.user!), noContent) },
];
