/**
 * The statistic families of behaviour §D2 as data: one line each. The route
 * table, the recording and fetch endpoints, their schemas (and so the
 * OpenAPI document and the CDK functions) and the tests are all built from
 * this table, so adding a family is one line and nothing can drift.
 *
 * A family names its path under `/stats/`, the settings toggle that turns
 * its recording on, the shape of its record, and how a recording body maps
 * onto the record. Record shapes (behaviour §D2.2):
 * - `user`: `user_id`, filled from the body field `from` (creating_user_id, ...).
 * - `member`: `member_id` (members joined / left), from `from`.
 * - `none`: no member (reminder send).
 * - `check-time`: the number `check_time` (or `field`), no member.
 * - `statuses`, `total`, `messages`, `commands`, `trigger-hit`: their own fields.
 * - `presence` and `voice` are sessions with their own recording logic.
 */

export type StatsToggle =
  | 'stats_messages_enabled'
  | 'stats_commands_enabled'
  | 'stats_members_enabled'
  | 'stats_activities_enabled'
  | 'stats_voice_enabled'
  | `stats_modules_${string}_enabled`;

export type FamilyShape =
  | { kind: 'user'; from: string }
  | { kind: 'member'; from: string }
  | { kind: 'none' }
  | { kind: 'number'; field: 'check_time' | 'send_time' }
  | { kind: 'statuses' }
  | { kind: 'total' }
  | { kind: 'messages' }
  | { kind: 'commands' }
  | { kind: 'trigger-hit' }
  | { kind: 'presence' }
  | { kind: 'voice' };

export interface Family {
  /** Path after `/modules/serverstats/stats/`. */
  path: string;
  toggle: StatsToggle;
  shape: FamilyShape;
}

// Marked free of effects, so a function that does not read the families (every serverstats route but the statistics) leaves the table out.
/* @__NO_SIDE_EFFECTS__ */
const module = (name: string): StatsToggle => `stats_modules_${name}_enabled`;
/* @__NO_SIDE_EFFECTS__ */
const created = (path: string, toggle: StatsToggle): Family => ({ path, toggle, shape: { kind: 'user', from: 'creating_user_id' } });
/* @__NO_SIDE_EFFECTS__ */
const deleted = (path: string, toggle: StatsToggle): Family => ({ path, toggle, shape: { kind: 'user', from: 'deleting_user_id' } });
/* @__NO_SIDE_EFFECTS__ */
const checkTime = (path: string, toggle: StatsToggle): Family => ({ path, toggle, shape: { kind: 'number', field: 'check_time' } });

const AR = module('autoresponder');
const IT = module('invite_tracker');
const GA = module('giveaways');
const PO = module('polls');
const RR = module('reactionroles');
const RE = module('reminders');
const RU = module('rules');
const TC = module('tempchannels');
const TI = module('tickets');

export const FAMILIES: readonly Family[] = [
  { path: 'activities/presence', toggle: 'stats_activities_enabled', shape: { kind: 'presence' } },
  { path: 'activities/statuses', toggle: 'stats_activities_enabled', shape: { kind: 'statuses' } },
  { path: 'commands/used', toggle: 'stats_commands_enabled', shape: { kind: 'commands' } },
  { path: 'members/joined', toggle: 'stats_members_enabled', shape: { kind: 'member', from: 'joined_member_id' } },
  { path: 'members/left', toggle: 'stats_members_enabled', shape: { kind: 'member', from: 'left_member_id' } },
  { path: 'members/total', toggle: 'stats_members_enabled', shape: { kind: 'total' } },
  { path: 'messages/sent', toggle: 'stats_messages_enabled', shape: { kind: 'messages' } },
  { path: 'messages/deleted', toggle: 'stats_messages_enabled', shape: { kind: 'messages' } },
  { path: 'voice', toggle: 'stats_voice_enabled', shape: { kind: 'voice' } },

  created('modules/autoresponder/responses/created', AR),
  deleted('modules/autoresponder/responses/deleted', AR),
  created('modules/autoresponder/triggers/created', AR),
  // Behaviour §D2 names the recording field of "triggers deleted" creating_user_id.
  created('modules/autoresponder/triggers/deleted', AR),
  { path: 'modules/autoresponder/triggers/hit', toggle: AR, shape: { kind: 'trigger-hit' } },
  checkTime('modules/autoresponder/check-time', AR),

  created('modules/invite-tracker/invite/created', IT),
  deleted('modules/invite-tracker/invite/deleted', IT),

  created('modules/giveaways/giveaway/created', GA),
  deleted('modules/giveaways/giveaway/deleted', GA),
  created('modules/giveaways/giveaway/enters', GA),
  deleted('modules/giveaways/giveaway/leaves', GA),
  created('modules/giveaways/giveaway/rerolled', GA),

  created('modules/polls/poll/created', PO),
  deleted('modules/polls/poll/deleted', PO),
  { path: 'modules/polls/poll/manually-closed', toggle: PO, shape: { kind: 'user', from: 'closing_user_id' } },
  created('modules/polls/vote/added', PO),
  deleted('modules/polls/vote/removed', PO),

  created('modules/reactionroles/panels/created', RR),
  deleted('modules/reactionroles/panels/deleted', RR),
  created('modules/reactionroles/reactionroles/added', RR),
  deleted('modules/reactionroles/reactionroles/removed', RR),
  checkTime('modules/reactionroles/check-time', RR),

  created('modules/reminders/reminder/created', RE),
  // Behaviour §D2 names the recording field of "reminder deleted" creating_user_id.
  created('modules/reminders/reminder/deleted', RE),
  { path: 'modules/reminders/reminder/send', toggle: RE, shape: { kind: 'none' } },
  { path: 'modules/reminders/send-time', toggle: RE, shape: { kind: 'number', field: 'send_time' } },

  created('modules/rules/rule/added', RU),
  deleted('modules/rules/rule/removed', RU),
  checkTime('modules/rules/check-time', RU),

  created('modules/tempchannels/creation-channels/created', TC),
  deleted('modules/tempchannels/creation-channels/deleted', TC),
  created('modules/tempchannels/tempchannels/created', TC),
  checkTime('modules/tempchannels/created-check-time', TC),
  checkTime('modules/tempchannels/deleted-check-time', TC),

  created('modules/tickets/panels/created', TI),
  deleted('modules/tickets/panels/deleted', TI),
  created('modules/tickets/types/added', TI),

  checkTime('modules/verifier/check-time', module('verifier')),
];

/** Which fetch filters a shape supports (behaviour §D2.4). */
export function filtersOf(shape: FamilyShape): { user: boolean; channel: boolean } {
  switch (shape.kind) {
    case 'messages':
    case 'voice':
      return { user: true, channel: true };
    case 'user':
    case 'commands':
    case 'presence':
    case 'trigger-hit':
      return { user: true, channel: false };
    default:
      return { user: false, channel: false };
  }
}

export const STATS_BASE = '/modules/serverstats/stats';
export const familyRoute = (family: Family) => `${STATS_BASE}/${family.path}`;
