import { afterAll, beforeAll } from 'vitest';
import { type CallOptions, type CallResult, failed, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { membersOf } from './members-sandbox.js';
export { failed, ok };

export const W = '/modules/welcoming';

/** Waits until `check` answers something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false | null>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false && value !== null) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface World {
  service: TestService;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  sandbox: ReturnType<typeof sandboxOf>;
  members: ReturnType<typeof membersOf>;
}

export function worldOf(service: TestService): World {
  return { service, call: (m, p, o) => service.call(m, `${W}${p}`, o), sandbox: sandboxOf(service), members: membersOf(service) };
}

/** Local mode for the tests of one file (started before them, stopped after); use it inside tests. */
export function startWorld(options: { indexLagMs?: number } = {}): World {
  let world: World | undefined;
  beforeAll(async () => {
    world = worldOf(await startTestService(options));
  });
  afterAll(async () => world?.service.stop());
  const current = () => {
    if (!world) throw new Error('local mode starts in beforeAll');
    return world;
  };
  return {
    get service() {
      return current().service;
    },
    call: (method, path, options) => current().call(method, path, options),
    get sandbox() {
      return current().sandbox;
    },
    get members() {
      return current().members;
    },
  };
}

/** A guild with the module enabled and `settings` applied; the channels and roles they name are the guild's on the sandbox. */
export async function welcomingGuild(world: World, settings: Record<string, unknown> = {}): Promise<string> {
  const guild = snowflake();
  await ownedBy(world, guild, settings);
  ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
  if (Object.keys(settings).length > 0) ok(await world.call('PUT', '/settings', { body: { guild_id: guild, ...settings } }));
  return guild;
}

export async function addResponse(world: World, guild: string, type: number, content: string, isEmbed = false) {
  return ok(await world.call('POST', '/responses', { body: { guild_id: guild, response_type: type, is_embed: isEmbed, content } })).response;
}

/** The channels and roles settings name, made the guild's on the sandbox (the service checks they are). */
export async function ownedBy(world: World, guild: string, settings: Record<string, unknown>): Promise<void> {
  for (const field of ['welcome_messages_channel', 'leave_messages_channel']) {
    if (typeof settings[field] === 'string' && settings[field] !== '') await world.sandbox.channelIn(guild, settings[field] as string);
  }
  if (Array.isArray(settings.autorole_role_ids)) for (const role of settings.autorole_role_ids as string[]) await world.sandbox.roleIn(guild, role);
}

/** A timed role of `roleId`, which the sandbox first knows as a role of the guild. */
export async function addTimedRole(world: World, guild: string, roleId: string, addAfter: number) {
  await world.sandbox.roleIn(guild, roleId);
  return ok(await world.call('POST', '/timedroles', { body: { guild_id: guild, role_id: roleId, add_after: addAfter } })).timedrole;
}

/** Calls an internal check for a member. */
export const check = (world: World, path: string, guild: string, member?: string) =>
  world.call('POST', `/check/${path}`, { body: { guild_id: guild }, headers: member ? { 'X-Acting-User-Id': member } : {} });

/** The contents (or embeds) of the messages in a channel, oldest first. */
export async function messagesIn(world: World, channelId: string) {
  const state = await world.sandbox.state();
  return state.channels.find((c) => c.id === channelId)?.messages ?? [];
}

/** Messages the bot sent a member by DM. */
export async function dmsOf(world: World, memberId: string) {
  const state = await world.sandbox.state();
  const channelId = state.dm_channels[memberId];
  return channelId ? await messagesIn(world, channelId) : [];
}

/** How often the service asked the platform to grant this role to this member. */
export async function grantRequests(world: World, guild: string, member: string, role: string) {
  return (await world.sandbox.requests()).filter((r) => r.method === 'PUT' && r.path === `/guilds/${guild}/members/${member}/roles/${role}`);
}

/** An API key of a guild. */
export async function guildApiKey(world: World, guild: string): Promise<string> {
  return ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
}
