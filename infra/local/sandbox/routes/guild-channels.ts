/**
 * A guild's channels and roles on the sandbox platform, and the platform's
 * rename limit: a channel may be renamed twice in any 10 minutes; a third
 * rename answers 429 with `retry_after`, as the platform does. The window is
 * reckoned in the shared clock, so tests can move it forward.
 *
 * Platform routes (under `/api/v10`):
 *   GET    /guilds/{g}/channels   the channels whose guild is g
 *   POST   /guilds/{g}/channels   `{name, type, parent_id?, permission_overwrites?}`: a new channel
 *   PATCH  /channels/{c}          `{name}`: renames (limited as above)
 *   PUT    /channels/{c}/permissions/{o}  `{type, allow?, deny?}`: sets the channel's overwrite for role or member o
 *   DELETE /channels/{c}/permissions/{o}  removes it (the bot's posts honour them: 403 50013 without view and send)
 *   GET    /guilds/{g}/roles      `@everyone` and the roles set below
 *
 * Control routes (under `/_sandbox`):
 *   PUT /guilds/{g}/roles/{r}     `{name, permissions?, managed?}`: the guild has this role, holding these permission bits
 *                                 (`managed`: an integration's, out of the bot's reach; the bot's own role is BOT_ROLE_ID)
 *                                 (a decimal string, as the platform writes them; `@everyone` is the guild's ID)
 *   PUT /guilds/{g}/counts        `{presence_count?, boosts?}`: members online and boosts
 *   POST /clock                   `{advance_ms}`: moves the clock forward (rename windows, service budgets)
 */
import { clockNow, moveClockForward } from '#shared/clock.js';
import { basePermissions, channelPermissions, missingPermissions as missingBits } from '#shared/platform/permissions.js';
import { FormErrors, invalidField, missingPermissions } from '../errors.js';
import { dispatchChannel } from '../events.js';
import { requireChannel } from '../lookup.js';
import type { Reply, Route } from '../router.js';
import { BOT_USER, mintSnowflake, type SandboxState, type StoredChannel } from '../state.js';
import { channelView } from '../views.js';
import { guildOf, memberView, rolesOfGuild } from './members.js';

export const RENAME_WINDOW_MS = 10 * 60 * 1000;
export const RENAMES_PER_WINDOW = 2;
/** Channel types a guild channel may be created with: text, voice, category, announcement, stage, forum. */
const GUILD_CHANNEL_TYPES = new Set([0, 2, 4, 5, 13, 15]);

const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

function checkName(errors: FormErrors, name: unknown): void {
  if (typeof name !== 'string' || name.length < 1 || name.length > 100) errors.add(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
}

const isBits = (value: unknown) => typeof value === 'string' && /^[0-9]{1,20}$/.test(value);

type StoredOverwrite = NonNullable<StoredChannel['permission_overwrites']>[number];

/** One overwrite as the platform checks it: type 0 (role) or 1 (member), `allow` and `deny` as decimal strings (default "0"). */
function checkOverwrite(errors: FormErrors, path: (string | number)[], id: unknown, o: Record<string, unknown>): StoredOverwrite | null {
  if (typeof id !== 'string' || !/^[0-9]{1,20}$/.test(id)) errors.add([...path, 'id'], 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
  if (o.type !== 0 && o.type !== 1) errors.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
  for (const key of ['allow', 'deny'] as const)
    if (o[key] !== undefined && o[key] !== null && !isBits(o[key])) errors.add([...path, key], 'NUMBER_TYPE_COERCE', 'Permission bits as a decimal string.');
  return typeof id === 'string'
    ? { id, type: o.type as number, allow: (o.allow as string | undefined) ?? '0', deny: (o.deny as string | undefined) ?? '0' }
    : null;
}

function putOverwrite(state: SandboxState, channelId: string, overwriteId: string, body: unknown): void {
  const channel = requireChannel(state, channelId);
  const errors = new FormErrors();
  const overwrite = checkOverwrite(errors, [], overwriteId, fieldsOf(body));
  errors.throwIfAny();
  channel.permission_overwrites = [...(channel.permission_overwrites ?? []).filter((o) => o.id !== overwriteId), overwrite!];
}

function deleteOverwrite(state: SandboxState, channelId: string, overwriteId: string): void {
  const channel = requireChannel(state, channelId);
  channel.permission_overwrites = (channel.permission_overwrites ?? []).filter((o) => o.id !== overwriteId);
}

/**
 * 403 Missing Permissions unless the bot may view and send in the channel,
 * computed as the platform does (its roles, then the channel's overwrites).
 * Channels of no guild (DMs, channels a test never set up) are open.
 */
export function assertBotMaySend(state: SandboxState, channelId: string): void {
  const channel = state.channels.get(channelId);
  if (!channel?.guild_id || !channel.permission_overwrites?.length) return;
  const guildId = channel.guild_id;
  const roles = memberView(state, guildId, BOT_USER.id).roles;
  const base = basePermissions(guildId, rolesOfGuild(state, guildId), roles);
  const bits = channelPermissions(base, { guildId, userId: BOT_USER.id, roles }, channel.permission_overwrites);
  if (missingBits(bits, ['ViewChannel', 'SendMessages']).length > 0) throw missingPermissions();
}

function createChannel(state: SandboxState, guildId: string, body: unknown): StoredChannel {
  const b = fieldsOf(body);
  const errors = new FormErrors();
  checkName(errors, b.name);
  const overwrites: StoredOverwrite[] = [];
  if (b.permission_overwrites !== undefined && b.permission_overwrites !== null) {
    if (!Array.isArray(b.permission_overwrites)) errors.add(['permission_overwrites'], 'BASE_TYPE_ARRAY', 'Must be an array.');
    else
      b.permission_overwrites.forEach((o, i) => {
        const checked = checkOverwrite(errors, ['permission_overwrites', i], fieldsOf(o).id, fieldsOf(o));
        if (checked) overwrites.push(checked);
      });
  }
  const type = b.type ?? 0;
  if (typeof type !== 'number' || !GUILD_CHANNEL_TYPES.has(type))
    errors.add(['type'], 'BASE_TYPE_CHOICES', `Value must be one of ${[...GUILD_CHANNEL_TYPES].join(', ')}.`);
  if (b.parent_id !== undefined && b.parent_id !== null) {
    const parent = typeof b.parent_id === 'string' ? state.channels.get(b.parent_id) : undefined;
    if (parent?.type !== 4 || parent.guild_id !== guildId) errors.add(['parent_id'], 'CHANNEL_PARENT_INVALID', 'Category does not exist.');
  }
  errors.throwIfAny();
  const channel: StoredChannel = {
    id: mintSnowflake(),
    type: type as number,
    guild_id: guildId,
    name: b.name as string,
    parent_id: (b.parent_id as string | undefined) ?? null,
    messages: new Map(),
    permission_overwrites: overwrites,
  };
  state.channels.set(channel.id, channel);
  dispatchChannel(state, true, channel);
  return channel;
}

function rename(state: SandboxState, channelId: string, body: unknown): Reply {
  const channel = requireChannel(state, channelId);
  const b = fieldsOf(body);
  const errors = new FormErrors();
  checkName(errors, b.name);
  errors.throwIfAny();
  const now = clockNow();
  const recent = (channel.renames ?? []).filter((at) => now - at < RENAME_WINDOW_MS);
  if (recent.length >= RENAMES_PER_WINDOW) {
    const retryAfter = Math.ceil((recent[0]! + RENAME_WINDOW_MS - now) / 1000);
    return {
      status: 429,
      headers: { 'Retry-After': String(retryAfter), 'X-RateLimit-Scope': 'shared' },
      body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
    };
  }
  channel.renames = [...recent, now];
  channel.name = b.name as string;
  return { status: 200, body: channelView(channel) };
}

/** The platform routes of this file. */
export const guildChannelRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/guilds/:guild/channels',
    handle: ({ state, params }) => ({ status: 200, body: [...state.channels.values()].filter((c) => c.guild_id === params.guild).map(channelView) }),
  },
  {
    method: 'POST',
    pattern: '/guilds/:guild/channels',
    handle: ({ state, params, body }) => ({ status: 201, body: channelView(createChannel(state, params.guild!, body)) }),
  },
  { method: 'PATCH', pattern: '/channels/:channel', handle: ({ state, params, body }) => rename(state, params.channel!, body) },
  {
    method: 'PUT',
    pattern: '/channels/:channel/permissions/:overwrite',
    handle: ({ state, params, body }) => (putOverwrite(state, params.channel!, params.overwrite!, body), { status: 204 }),
  },
  {
    method: 'DELETE',
    pattern: '/channels/:channel/permissions/:overwrite',
    handle: ({ state, params }) => (deleteOverwrite(state, params.channel!, params.overwrite!), { status: 204 }),
  },
  { method: 'GET', pattern: '/guilds/:guild/roles', handle: ({ state, params }) => ({ status: 200, body: rolesOfGuild(state, params.guild!) }) },
];

/** The control routes of this file; patterns are relative to `/_sandbox`. */
export const guildChannelControlRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: '/guilds/:guild/roles/:role',
    handle: ({ state, params, body }) => {
      const { name, permissions, managed } = fieldsOf(body);
      const errors = new FormErrors();
      if (typeof name !== 'string' || name === '') errors.add(['name'], 'BASE_TYPE_REQUIRED', 'A non-empty string is required.');
      if (permissions !== undefined && !isBits(permissions))
        errors.add(['permissions'], 'NUMBER_TYPE_COERCE', 'Permission bits as a decimal string, e.g. "32" for Manage Guild.');
      if (managed !== undefined && typeof managed !== 'boolean') errors.add(['managed'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
      errors.throwIfAny();
      const guild = guildOf(state, params.guild!);
      if (params.role !== params.guild) (guild.roles ??= new Map()).set(params.role!, name as string);
      if (typeof permissions === 'string') (guild.permissions ??= new Map()).set(params.role!, permissions);
      if (managed === true) (guild.managed ??= new Set()).add(params.role!);
      if (managed === false) guild.managed?.delete(params.role!);
      return { status: 200, body: rolesOfGuild(state, params.guild!) };
    },
  },
  {
    method: 'PUT',
    pattern: '/guilds/:guild/counts',
    handle: ({ state, params, body }) => {
      const b = fieldsOf(body);
      const guild = guildOf(state, params.guild!);
      if (typeof b.presence_count === 'number') guild.presence_count = b.presence_count;
      if (typeof b.boosts === 'number') guild.boosts = b.boosts;
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: '/clock',
    handle: ({ body }) => {
      const ms = fieldsOf(body).advance_ms;
      if (typeof ms !== 'number' || ms < 0) throw invalidField(['advance_ms'], 'NUMBER_TYPE_MIN', 'A number of milliseconds, 0 or more.');
      moveClockForward(ms);
      return { status: 204 };
    },
  },
];
