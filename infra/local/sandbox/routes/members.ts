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
 *   GET /guilds/{g}/members/{u}           one member (`joined_at`, `nick`, `roles`, `user`)
 *   GET /users/{u}                        a user
 *   POST /channels/{dm}/messages          403 code 50007 when the DM's recipient refuses DMs
 *
 * Control routes (under `/_sandbox`):
 *   PUT  /guilds/{g}                      `{name}`: names the guild
 *   POST /guilds/{g}/members/{u}/join     `{joined_at?, nick?, username?, global_name?, bot?, roles?}`:
 *                                         the user joins (now unless `joined_at`, an ISO time); answers the member
 *   POST /guilds/{g}/members/join-many    `{user_ids, joined_at?, roles?}`: up to 10,000 users join at once
 *                                         (a large guild for tests and the bench); answers `{members}`, the guild's count
 *   POST /guilds/{g}/members/{u}/leave    the member leaves (their roles go too); 404 10007 when not a member
 *   PUT  /users/{u}                       `{username?, global_name?, bot?}`: the user's names
 *   POST /users/{u}/refuse-dms            the user stops accepting DMs; DELETE: accepts them again
 */
import type { APIGuild, APIGuildMember, APIUser, GuildMemberFlags } from 'discord-api-types/v10';
import { FormErrors, cannotMessageUser, invalidField, unknownMember } from '../errors.js';
import { readSnowflakeQuery, type Route } from '../router.js';
import { type SandboxState, type StoredGuild, type StoredMembership, rolesOf, userOf } from '../state.js';

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
  return !members || members.has(userId);
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
    roles: [...(state.members.get(guildId)?.get(userId) ?? [])],
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
  const view: GuildView = { id: guild.id, name: guild.name, icon: null, owner_id: '0', roles: [], emojis: [], features: [] };
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
  trackedMembers(state, guildId).set(userId, { joined_at: joinedAt, nick: typeof body.nick === 'string' ? body.nick : null });
  const roles = rolesOf(state, guildId, userId);
  roles.clear();
  for (const role of (body.roles as string[] | undefined) ?? []) roles.add(role);
  return memberView(state, guildId, userId);
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
  trackedMembers(state, guildId).delete(userId);
  state.members.get(guildId)?.delete(userId);
}

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
      const name = fieldsOf(body).name;
      if (typeof name !== 'string' || name === '') throw invalidField(['name'], 'BASE_TYPE_REQUIRED', 'A non-empty string is required.');
      guildOf(state, params.guild!).name = name;
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
