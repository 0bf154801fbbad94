import { orderedIdFloor } from '../ids.js';
import type { ModuleName } from './names.js';

/**
 * What the foundation knows of each module: its default settings (created by
 * the first `enable`), and the lists its enable/disable snapshot shows, each
 * read from the guild's items under a sort-key prefix. A module's own issue
 * stores its records under these prefixes, so the snapshot shows them.
 */
export interface ModuleDefinition {
  /** Settings created on first enable; null when the module has no settings record. */
  defaults: Record<string, unknown> | null;
  /** Whether the snapshot carries `status` (part 1 modules) besides its lists. */
  snapshotStatus: boolean;
  /** Snapshot lists: key in `data` -> sort-key prefix of the guild's items. */
  lists: Record<string, string>;
  /**
   * Snapshot lists that can grow without bound (behaviour §15): the snapshot
   * shows their newest ANSWER_LIST_LIMIT records, as many as fit in the
   * bytes the rest of the snapshot leaves, and adds `<key>_total`, their
   * count; the whole list is paged from its own route.
   */
  counted?: string[];
  /**
   * Counted lists whose records a settings delete removes behind its answer
   * (behaviour §15): list key -> the first sort key of the records stored at
   * or after the delete (the state's `data_since`, ISO 8601). The snapshot
   * reads those only, while the older ones are being removed.
   */
  since?: Record<string, (dataSince: string) => string>;
  /** Lists grouped under one key, e.g. socials' `entries: {forum: [], ...}`. */
  groupedLists?: { key: string; groups: Record<string, string> };
}

/** The statistics toggles of the serverstats settings (behaviour §D2). */
export const STATS_TOGGLES = [
  'stats_messages_enabled',
  'stats_commands_enabled',
  'stats_members_enabled',
  'stats_activities_enabled',
  'stats_voice_enabled',
  'stats_modules_autoresponder_enabled',
  'stats_modules_tags_enabled',
  'stats_modules_verifier_enabled',
  'stats_modules_socials_enabled',
  'stats_modules_rules_enabled',
  'stats_modules_invite_tracker_enabled',
  'stats_modules_reactionroles_enabled',
  'stats_modules_welcoming_enabled',
  'stats_modules_tempchannels_enabled',
  'stats_modules_tickets_enabled',
  'stats_modules_reminders_enabled',
  'stats_modules_giveaways_enabled',
  'stats_modules_polls_enabled',
] as const;

export const MODULE_CATALOGUE: Record<ModuleName, ModuleDefinition> = {
  reactionroles: { defaults: null, snapshotStatus: true, lists: {} },
  polls: {
    defaults: { save_duration_timeout: 604800, delete_ended_platform_polls: false, delete_ended_service_polls: false },
    snapshotStatus: true,
    lists: {},
  },
  socials: {
    defaults: { monitor_forum: false, monitor_rss: false, monitor_stream: false, monitor_video: false },
    snapshotStatus: true,
    lists: {},
    groupedLists: {
      key: 'entries',
      groups: { forum: 'SOCIAL#forum#', stream: 'SOCIAL#stream#', rss: 'SOCIAL#rss#', video: 'SOCIAL#video#' },
    },
  },
  serverstats: {
    defaults: {
      counters_enabled: false,
      counters_category_id: null,
      starboard_enabled: false,
      starboard_channel_id: null,
      starboard_count: '3',
      // Statistics are what the module is for: enabling it records them until a toggle says otherwise.
      ...Object.fromEntries(STATS_TOGGLES.map((name) => [name, true])),
    },
    snapshotStatus: false,
    lists: { counters: 'COUNTER#', starboard_entries: 'STARBOARD#' },
    counted: ['starboard_entries'],
  },
  welcoming: {
    defaults: {
      welcome_messages_dm_enabled: false,
      welcome_messages_enabled: false,
      welcome_messages_randomized: false,
      welcome_messages_channel: null,
      leave_messages_enabled: false,
      leave_messages_randomized: false,
      leave_messages_channel: null,
      autorole_enabled: false,
      autorole_role_ids: '',
      timedroles_enabled: false,
      welcome_messages_dm_randomized: false,
      welcome_message_dm_response_id: null,
      welcome_message_response_id: null,
      leave_message_response_id: null,
    },
    snapshotStatus: false,
    lists: { responses: 'WELCOME#RESPONSE#', timedroles: 'WELCOME#TIMEDROLE#' },
    // At most 60 (20 of each type), but each up to what a 64 KiB body holds: counted for their bytes.
    counted: ['responses'],
  },
  'invite-tracker': {
    defaults: {
      join_messages_enabled: false,
      join_messages_channel: null,
      join_message_is_embed: false,
      join_message_content: null,
      leave_messages_enabled: false,
      leave_messages_channel: null,
      leave_message_is_embed: false,
      leave_message_content: null,
      prevent_own_invite_code: true,
      server_shared_invite_link: null,
    },
    snapshotStatus: false,
    lists: { invites: 'INVITE#', stats_uses: 'INVITEUSE#' },
    counted: ['stats_uses'],
    // A use's sort key is its time (ISO 8601), then its id.
    since: { stats_uses: (dataSince) => `INVITEUSE#${dataSince}` },
  },
  giveaways: {
    defaults: { save_duration_timeout: 604800, delete_ended_giveaways: false },
    snapshotStatus: false,
    lists: { giveaways: 'GIVEAWAY#' },
    counted: ['giveaways'],
  },
  verifier: {
    defaults: {
      verifier_type: 1,
      verifier_verified_role_ids: '',
      verifier_message_is_embed: false,
      verifier_message_content: 'Press the button below to verify.',
      verifier_channel: null,
      verifier_message_content_completed: 'You are verified.',
      verifier_passphrase: null,
      verifier_message_completed_is_embed: false,
    },
    snapshotStatus: false,
    lists: { entries: 'VERIFICATION#' },
    counted: ['entries'],
    // An entry's sort key is its verifier ID, which starts with its time.
    since: { entries: (dataSince) => `VERIFICATION#${orderedIdFloor(Date.parse(dataSince))}` },
  },
  tags: { defaults: null, snapshotStatus: true, lists: {} },
};
