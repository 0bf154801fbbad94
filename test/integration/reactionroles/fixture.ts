/** What the reaction-roles integration tests share: a service with its sandbox, and short ways to set a panel up. */
import { expect } from 'vitest';
import { ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { type SandboxControl, sandboxOf } from '#test/helpers/sandbox.js';
export { ok };

export const RR = '/modules/reactionroles';

/** 25 distinct unicode emojis, one per possible entry. */
export const EMOJIS = [
  '😀',
  '🎉',
  '🔥',
  '🍕',
  '🎮',
  '🎵',
  '📚',
  '⚽',
  '🚀',
  '🌙',
  '🌈',
  '🐱',
  '🐶',
  '🍎',
  '🍩',
  '🎨',
  '🎲',
  '🏆',
  '💡',
  '🔔',
  '🧩',
  '🛠',
  '🌵',
  '🦊',
  '🐝',
];

export interface World {
  service: TestService;
  sandbox: SandboxControl;
}

export async function startWorld(): Promise<World> {
  const service = await startTestService();
  return { service, sandbox: sandboxOf(service) };
}

/** A new guild with the module enabled. */
export async function enabledGuild(world: World): Promise<string> {
  const guild = snowflake();
  const res = await world.service.call('POST', `${RR}/enable`, { body: { guild_id: guild } });
  expect(res.status).toBe(200);
  return guild;
}

/** `n` new roles of the guild, as the platform knows them. */
export async function newRoles(world: World, guild: string, n: number): Promise<string[]> {
  return Promise.all(Array.from({ length: n }, () => world.sandbox.roleIn(guild)));
}

/** A create body for a service-written panel; `overrides` replace fields (undefined removes one). */
export function panelBody(guild: string, channel: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    guild_id: guild,
    is_register: false,
    channel_id: channel,
    limit_roles_to_one: false,
    supports_remove: true,
    remove_roles_from_users_on_entry_delete: false,
    panel_type: 'emoji',
    keep_counter_at_one: false,
    delete_unrelated_emoji_reactions: false,
    is_embed: false,
    content: 'Pick your roles',
    ...overrides,
  };
  for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete body[key];
  return body;
}

/** A panel in `channel`, by default a new channel of the guild. */
export async function createPanel(world: World, guild: string, overrides: Record<string, unknown> = {}, channel?: string) {
  channel ??= await world.sandbox.channelIn(guild);
  return ok(await world.service.call('POST', `${RR}/panels`, { looseBody: panelBody(guild, channel, overrides) })).panel;
}

export async function addEntry(world: World, guild: string, panelId: string, fields: Record<string, unknown>) {
  const body = { guild_id: guild, role_ids: [await world.sandbox.roleIn(guild)], emoji_id: null, text: null, description: null, ...fields };
  return ok(await world.service.call('POST', `${RR}/panel/${panelId}/entries`, { looseBody: body })).entry;
}

/** A panel with one entry per emoji given, each granting one new role. */
export async function panelWithEntries(world: World, guild: string, overrides: Record<string, unknown>, emojis: string[], text = true) {
  const panel = await createPanel(world, guild, overrides);
  const entries = [];
  for (const [i, emoji] of emojis.entries()) {
    entries.push(await addEntry(world, guild, panel.panel_id, { emoji_name: emoji, text: text ? `Choice ${i + 1}` : null }));
  }
  return { panel, entries };
}

/** A reaction event as the bot reports it. */
export function react(
  world: World,
  guild: string,
  panel: { channel_id: string; message_id: string },
  member: string,
  emoji: string,
  type: 'reaction_add' | 'reaction_delete' = 'reaction_add',
  emojiId: string | null = null,
) {
  return world.service.call('POST', `${RR}/check`, {
    headers: { 'X-Acting-User-Id': member },
    body: { guild_id: guild, channel_id: panel.channel_id, message_id: panel.message_id, interaction_type: type, emoji_name: emoji, emoji_id: emojiId },
  });
}

/** A component interaction as the bot reports it; answers the call and the interaction's webhook address. */
export async function click(
  world: World,
  guild: string,
  panel: { channel_id: string; message_id: string },
  member: string,
  customId: string,
  value: string | null = null,
) {
  const application = snowflake();
  const token = `token-${snowflake()}`;
  const res = await world.service.call('POST', `${RR}/check`, {
    headers: { 'X-Acting-User-Id': member },
    body: {
      guild_id: guild,
      channel_id: panel.channel_id,
      message_id: panel.message_id,
      interaction_type: 'component',
      interaction_custom_id: customId,
      interaction_id_token: token,
      application_id: application,
      interaction_value: value,
    },
  });
  const answers = await world.sandbox.webhook(application, token);
  return { res, answers };
}
