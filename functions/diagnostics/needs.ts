/**
 * What each module's settings and records name on the platform, and what
 * the bot needs there (behaviour §17, "Diagnostics"): the one table the
 * diagnostics routes of all nine modules read. A field's value may be one
 * ID, a comma-separated list (`autorole_role_ids`) or an array; `entries[].role_ids`
 * reads `role_ids` of each element of `entries`.
 */
import type { ModuleName } from '#shared/modules/names.js';
import type { PermissionName } from '#shared/platform/permissions.js';

/** The problem codes (docs/behaviour.md, "Diagnostics"). */
export const PROBLEM_CODES = [
  'channel_missing',
  'channel_permission',
  'role_missing',
  'role_above_bot',
  'role_managed',
  'missing_manage_roles',
  'intent_missing',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** A field naming a channel (with the permissions the bot needs in it) or a role the module grants or removes. */
export type Named = { field: string; channel: readonly PermissionName[] } | { field: string; role: true };

/** The privileged intents (gateway) a module may need, by the application flags that grant them. */
export type Intent = 'GUILD_MEMBERS' | 'GUILD_PRESENCES';

export interface ModuleNeeds {
  /** false for the modules without a settings record (shared/modules/catalogue.ts, its `defaults` null). */
  hasSettings?: false;
  /** Fields of the settings record. */
  settings: readonly Named[];
  /** Records under a sort-key prefix, and their fields; `list` names them in a problem's `field` (`panels.channel_id`). */
  records: readonly { list: string; prefix: string; fields: readonly Named[] }[];
  intents: readonly Intent[];
}

const POST: readonly PermissionName[] = ['ViewChannel', 'SendMessages', 'EmbedLinks'];
const role = (field: string): Named => ({ field, role: true });
const channel = (field: string, needs: readonly PermissionName[]): Named => ({ field, channel: needs });

export const MODULE_NEEDS: Record<ModuleName, ModuleNeeds> = {
  reactionroles: {
    hasSettings: false,
    settings: [],
    records: [
      {
        list: 'panels',
        prefix: 'RR#PANEL#',
        // Posts or edits its panel, reacts with the entries' emoji, removes members' reactions, reads the message back.
        fields: [channel('channel_id', [...POST, 'AddReactions', 'ManageMessages', 'ReadMessageHistory']), role('entries[].role_ids')],
      },
    ],
    intents: [],
  },
  polls: {
    settings: [],
    records: [
      { list: 'polls', prefix: 'POLL#', fields: [channel('channel_id', [...POST, 'AddReactions', 'ReadMessageHistory', 'SendPolls', 'ManageMessages'])] },
    ],
    intents: [],
  },
  socials: {
    settings: [],
    records: [{ list: 'entries', prefix: 'SOCIAL#', fields: [channel('target_channel_id', POST)] }],
    intents: [],
  },
  serverstats: {
    settings: [channel('counters_category_id', ['ViewChannel', 'ManageChannels']), channel('starboard_channel_id', [...POST, 'ReadMessageHistory'])],
    records: [{ list: 'counters', prefix: 'COUNTER#', fields: [channel('channel_id', ['ViewChannel', 'ManageChannels'])] }],
    // Member counters and statistics count members; online counters and activity statistics read presences.
    intents: ['GUILD_MEMBERS', 'GUILD_PRESENCES'],
  },
  welcoming: {
    settings: [channel('welcome_messages_channel', POST), channel('leave_messages_channel', POST), role('autorole_role_ids')],
    records: [{ list: 'timedroles', prefix: 'WELCOME#TIMEDROLE#', fields: [role('role_id')] }],
    // Joins and leaves arrive only with the members intent.
    intents: ['GUILD_MEMBERS'],
  },
  'invite-tracker': {
    settings: [channel('join_messages_channel', POST), channel('leave_messages_channel', POST)],
    records: [],
    intents: ['GUILD_MEMBERS'],
  },
  giveaways: {
    settings: [],
    records: [{ list: 'giveaways', prefix: 'GIVEAWAY#', fields: [channel('channel_id', [...POST, 'ReadMessageHistory'])] }],
    intents: [],
  },
  verifier: {
    settings: [channel('verifier_channel', [...POST, 'ReadMessageHistory']), role('verifier_verified_role_ids')],
    records: [],
    intents: [],
  },
  // Tags are sent where a member asks, through the interaction: nothing of the guild is named ahead.
  tags: { hasSettings: false, settings: [], records: [], intents: [] },
};

/** Application flags (GET /applications/@me) that grant each intent: the full one or the limited one (under 100 guilds). */
export const INTENT_FLAGS: Record<Intent, { full: number; limited: number; flag: string }> = {
  GUILD_MEMBERS: { full: 1 << 14, limited: 1 << 15, flag: 'GATEWAY_GUILD_MEMBERS' },
  GUILD_PRESENCES: { full: 1 << 12, limited: 1 << 13, flag: 'GATEWAY_PRESENCE' },
};
