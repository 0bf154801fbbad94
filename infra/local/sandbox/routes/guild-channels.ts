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
 *   GET    /guilds/{g}/roles      `@everyone` and the roles set below
 *
 * Control routes (under `/_sandbox`):
 *   PUT /guilds/{g}/roles/{r}     `{name, permissions?}`: the guild has this role, holding these permission bits
 *                                 (a decimal string, as the platform writes them; `@everyone` is the guild's ID)
 *   PUT /guilds/{g}/counts        `{presence_count?, boosts?}`: members online and boosts
 *   POST /clock                   `{advance_ms}`: moves the clock forward (rename windows, service budgets)
 */
import { clockNow, moveClockForward } from '#shared/clock.js';
import { FormErrors, invalidField } from '../errors.js';
import { dispatchChannel } from '../events.js';
import { requireChannel } from '../lookup.js';
import type { Reply, Route } from '../router.js';
import { mintSnowflake, type SandboxState, type StoredChannel } from '../state.js';
import { channelView } from '../views.js';
import { guildOf, rolesOfGuild } from './members.js';

export const RENAME_WINDOW_MS = 10 * 60 * 1000;
export const RENAMES_PER_WINDOW = 2;
/** Channel types a guild channel may be created with: text, voice, category, announcement, stage, forum. */
const GUILD_CHANNEL_TYPES = new Set([0, 2, 4, 5, 13, 15]);

const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

function checkName(errors: FormErrors, name: unknown): void {
  if (typeof name !== 'string' || name.length < 1 || name.length > 100) errors.add(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
}

function createChannel(state: SandboxState, guildId: string, body: unknown): StoredChannel {
  const b = fieldsOf(body);
  const errors = new FormErrors();
  checkName(errors, b.name);
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
  { method: 'GET', pattern: '/guilds/:guild/roles', handle: ({ state, params }) => ({ status: 200, body: rolesOfGuild(state, params.guild!) }) },
];

/** The control routes of this file; patterns are relative to `/_sandbox`. */
export const guildChannelControlRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: '/guilds/:guild/roles/:role',
    handle: ({ state, params, body }) => {
      const { name, permissions } = fieldsOf(body);
      const errors = new FormErrors();
      if (typeof name !== 'string' || name === '') errors.add(['name'], 'BASE_TYPE_REQUIRED', 'A non-empty string is required.');
      if (permissions !== undefined && !(typeof permissions === 'string' && /^[0-9]{1,20}$/.test(permissions)))
        errors.add(['permissions'], 'NUMBER_TYPE_COERCE', 'Permission bits as a decimal string, e.g. "32" for Manage Guild.');
      errors.throwIfAny();
      const guild = guildOf(state, params.guild!);
      if (params.role !== params.guild) (guild.roles ??= new Map()).set(params.role!, name as string);
      if (typeof permissions === 'string') (guild.permissions ??= new Map()).set(params.role!, permissions);
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
