/**
 * What would stop a module from working in a guild, read from the platform
 * (behaviour §17, "Diagnostics"): each channel its settings and records
 * name (the bot's effective permissions there against what the module
 * needs), each role it grants or removes (below the bot's highest role, not
 * managed, Manage Roles held), and the privileged intents it needs.
 */
import { moduleDisabled, settingsMissing } from '#shared/errors.js';
import type { ModuleName } from '#shared/modules/names.js';
import { ANSWER_LIST_LIMIT, firstGuildItems, readModuleState, recordOf } from '#shared/modules/store.js';
import { isPlatformError, platform } from '#shared/platform/client.js';
import { type Overwrite, Permission, basePermissions, channelPermissions, missingPermissions } from '#shared/platform/permissions.js';
import { INTENT_FLAGS, MODULE_NEEDS, type Named, type ProblemCode } from './needs.js';

export interface Problem {
  code: ProblemCode;
  /** The setting (`welcome_messages_channel`) or record field (`panels.channel_id`) naming the object; null for the module as a whole. */
  field: string | null;
  /** The channel or role; null for an intent or a guild-wide permission. */
  object_id: string | null;
  message: string;
}

/** The IDs a field's value holds: one ID, a comma-separated list, an array, or `list[].field` of each element. */
function idsOf(source: Record<string, unknown>, field: string): string[] {
  const nested = /^([^[]+)\[\]\.(.+)$/.exec(field);
  if (nested) {
    const list = source[nested[1]!];
    return Array.isArray(list)
      ? list.flatMap((element) => (element && typeof element === 'object' ? idsOf(element as Record<string, unknown>, nested[2]!) : []))
      : [];
  }
  const value = source[field];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(',').filter((id) => /^[0-9]{1,20}$/.test(id));
  return [];
}

/** A channel or role use: where it is named (the field) and, for a channel, what the module needs there. */
type Use = { field: string; named: Named };

/** Every object the module names, by ID, with each field naming it (an ID named twice is read once). */
function namedObjects(settings: Record<string, unknown> | null, records: Map<string, Record<string, unknown>[]>, module: ModuleName) {
  const uses = new Map<string, Use[]>();
  const add = (id: string, use: Use) => uses.set(id, [...(uses.get(id) ?? []), use]);
  const needs = MODULE_NEEDS[module];
  for (const named of needs.settings) for (const id of idsOf(settings ?? {}, named.field)) add(id, { field: named.field, named });
  for (const { list, fields } of needs.records)
    for (const record of records.get(list) ?? [])
      for (const named of fields) for (const id of idsOf(record, named.field)) add(id, { field: `${list}.${named.field}`, named });
  return uses;
}

/** The guild as the bot sees it: its roles, the bot's roles and guild-wide permissions, its highest position. */
async function botInGuild(guildId: string, botId: string) {
  const [roles, member] = await Promise.all([platform.getGuildRoles(guildId), platform.getMember(guildId, botId)]);
  const base = basePermissions(guildId, roles, member.roles);
  const byId = new Map(roles.map((r) => [r.id, r]));
  const highest = Math.max(0, ...member.roles.map((id) => byId.get(id)?.position ?? 0));
  return { roles: byId, memberRoles: member.roles, base, highest };
}

const PERMISSION_TEXT: Record<string, string> = {
  ViewChannel: 'View Channel',
  SendMessages: 'Send Messages',
  EmbedLinks: 'Embed Links',
  AddReactions: 'Add Reactions',
  ManageMessages: 'Manage Messages',
  ReadMessageHistory: 'Read Message History',
  SendPolls: 'Send Polls',
  ManageChannels: 'Manage Channels',
};

/** What a channel read tells: its guild and overwrites (guild channels have both). */
type SeenChannel = { guild_id?: string; permission_overwrites?: Overwrite[] };

async function channelProblems(guildId: string, botId: string, bot: Awaited<ReturnType<typeof botInGuild>>, id: string, uses: Use[]): Promise<Problem[]> {
  let found: SeenChannel | null = null;
  try {
    found = (await platform.getChannel(id)) as unknown as SeenChannel;
  } catch (error) {
    // 404 Unknown Channel, or 403: the bot cannot see the channel at all (Missing Access).
    if (!isPlatformError(error) || (error.platformStatus !== 404 && error.platformStatus !== 403)) throw error;
  }
  if (!found || (found.guild_id && found.guild_id !== guildId)) {
    return uses.map(({ field }) => ({
      code: 'channel_missing',
      field,
      object_id: id,
      message: `Channel ${id} (${field}) does not exist in guild ${guildId} or the bot cannot see it; choose another channel.`,
    }));
  }
  const bits = channelPermissions(bot.base, { guildId, userId: botId, roles: bot.memberRoles }, found.permission_overwrites ?? []);
  return uses.flatMap(({ field, named }) => {
    if (!('channel' in named)) return [];
    const missing = missingPermissions(bits, named.channel);
    if (missing.length === 0) return [];
    const names = missing.map((name) => PERMISSION_TEXT[name] ?? name).join(', ');
    return [
      {
        code: 'channel_permission',
        field,
        object_id: id,
        message: `The bot lacks ${names} in channel ${id} (${field}); grant them to its role there.`,
      } satisfies Problem,
    ];
  });
}

function roleProblems(bot: Awaited<ReturnType<typeof botInGuild>>, guildId: string, id: string, uses: Use[]): Problem[] {
  const found = bot.roles.get(id);
  return uses.flatMap(({ field }): Problem[] => {
    if (!found)
      return [{ code: 'role_missing', field, object_id: id, message: `Role ${id} (${field}) is not a role of guild ${guildId}; choose another role.` }];
    if (found.managed)
      return [{ code: 'role_managed', field, object_id: id, message: `Role ${id} (${field}) is managed by an integration; no bot may grant or remove it.` }];
    if (found.position >= bot.highest)
      return [
        {
          code: 'role_above_bot',
          field,
          object_id: id,
          message: `Role ${id} (${field}) is not below the bot's highest role; move the bot's role above it.`,
        },
      ];
    return [];
  });
}

/** The module's problems in the guild; empty when nothing is wrong. */
export async function diagnose(guildId: string, module: ModuleName): Promise<Problem[]> {
  const needs = MODULE_NEEDS[module];
  const [state, lists] = await Promise.all([
    readModuleState(guildId, module),
    Promise.all(needs.records.map(async ({ list, prefix }) => [list, (await firstGuildItems(guildId, prefix, ANSWER_LIST_LIMIT)).map(recordOf)] as const)),
  ]);
  // A disabled module is diagnosed too (its set-up is checked before turning it on); one never enabled has nothing set up yet.
  if (!state?.enabled && !state?.settings && lists.every(([, records]) => records.length === 0)) {
    throw moduleDisabled(`The ${module} module is disabled for guild ${guildId} and has nothing set up; enable it with POST /modules/${module}/enable.`);
  }
  if (state?.enabled && needs.hasSettings !== false && !state.settings) {
    throw settingsMissing(`The ${module} module has no settings for guild ${guildId}; enable the module to create them.`);
  }
  const uses = namedObjects(state?.settings ?? null, new Map(lists), module);
  const application = await platform.getApplication();
  const problems: Problem[] = [];
  for (const intent of needs.intents) {
    const { full, limited, flag } = INTENT_FLAGS[intent];
    if ((application.flags ?? 0) & (full | limited)) continue;
    problems.push({
      code: 'intent_missing',
      field: null,
      object_id: null,
      message: `The ${module} module needs the ${intent} privileged intent (${flag}); turn it on in the application's Bot settings.`,
    });
  }
  if (uses.size === 0) return problems;
  const botId = application.bot?.id ?? application.id;
  const bot = await botInGuild(guildId, botId);
  const roleUses = [...uses].map(([id, list]) => [id, list.filter((u) => 'role' in u.named)] as const).filter(([, list]) => list.length > 0);
  const channelUses = [...uses].map(([id, list]) => [id, list.filter((u) => 'channel' in u.named)] as const).filter(([, list]) => list.length > 0);
  if (roleUses.length > 0 && !(bot.base & Permission.ManageRoles)) {
    problems.push({
      code: 'missing_manage_roles',
      field: null,
      object_id: null,
      message: `The bot lacks Manage Roles in guild ${guildId}, which the ${module} module needs to grant and remove roles; grant it to the bot's role.`,
    });
  }
  for (const [id, list] of roleUses) problems.push(...roleProblems(bot, guildId, id, list));
  const perChannel = await Promise.all(channelUses.map(([id, list]) => channelProblems(guildId, botId, bot, id, list)));
  return [...problems, ...perChannel.flat()];
}
