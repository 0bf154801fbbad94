/**
 * Where members are and how they show: voice channels and presences, set by
 * people (control routes) and dispatched as VOICE_STATE_UPDATE and
 * PRESENCE_UPDATE.
 *
 * Control routes (under `/_sandbox`):
 *   PUT /guilds/{g}/voice/{u}       `{channel_id}`: the member joins that voice channel of the guild (null: leaves voice)
 *   PUT /guilds/{g}/presences/{u}   `{status, activities?}`: online, idle, dnd or offline, and what they are doing
 */
import { type GatewayActivity, GatewayDispatchEvents, PresenceUpdateStatus } from 'discord-api-types/v10';
import { FormErrors } from '../errors.js';
import { dispatch } from '../events.js';
import type { Route } from '../router.js';
import type { SandboxState } from '../state.js';
import { presenceView, requireMember, voiceStateView } from './members.js';

const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const STATUSES = new Set<string>([PresenceUpdateStatus.Online, PresenceUpdateStatus.Idle, PresenceUpdateStatus.DoNotDisturb, PresenceUpdateStatus.Offline]);
/** Activity types: playing, streaming, listening, watching, custom, competing. */
const ACTIVITY_TYPES = new Set([0, 1, 2, 3, 4, 5]);
const MAX_ACTIVITIES = 10;

function setVoice(state: SandboxState, guildId: string, userId: string, body: unknown) {
  const channelId = fieldsOf(body).channel_id;
  const errors = new FormErrors();
  if (channelId !== null) {
    const channel = typeof channelId === 'string' ? state.channels.get(channelId) : undefined;
    if (!channel || state.deletedChannels.has(channel.id) || channel.guild_id !== guildId) {
      errors.add(
        ['channel_id'],
        'CHANNEL_INVALID',
        `Must be a channel of guild ${guildId} (declare it with PUT /_sandbox/channels/{c}), or null to leave voice.`,
      );
    }
  }
  errors.throwIfAny();
  requireMember(state, guildId, userId);
  let voice = state.voice.get(guildId);
  if (!voice) state.voice.set(guildId, (voice = new Map()));
  if (channelId === null) voice.delete(userId);
  else voice.set(userId, channelId as string);
  const d = voiceStateView(guildId, userId, (channelId as string | null) ?? null);
  dispatch(state, { t: GatewayDispatchEvents.VoiceStateUpdate, d });
  return d;
}

function checkActivities(errors: FormErrors, value: unknown): GatewayActivity[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ACTIVITIES) {
    errors.add(['activities'], 'BASE_TYPE_ARRAY', `Must be an array of at most ${MAX_ACTIVITIES} activities.`);
    return [];
  }
  value.forEach((activity, i) => {
    const a = fieldsOf(activity);
    if (typeof a.name !== 'string' || a.name.length < 1 || a.name.length > 128)
      errors.add(['activities', i, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 128 in length.');
    if (typeof a.type !== 'number' || !ACTIVITY_TYPES.has(a.type))
      errors.add(['activities', i, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1, 2, 3, 4, 5).');
  });
  return (value as Record<string, unknown>[]).map((a) => ({
    name: a.name as string,
    type: a.type as number,
    created_at: Date.now(),
    ...(typeof a.state === 'string' ? { state: a.state } : {}),
    ...(typeof a.url === 'string' ? { url: a.url } : {}),
  })) as GatewayActivity[];
}

function setPresence(state: SandboxState, guildId: string, userId: string, body: unknown) {
  const b = fieldsOf(body);
  const errors = new FormErrors();
  if (typeof b.status !== 'string' || !STATUSES.has(b.status))
    errors.add(['status'], 'BASE_TYPE_CHOICES', 'Value must be one of (online, idle, dnd, offline).');
  const activities = checkActivities(errors, b.activities);
  errors.throwIfAny();
  requireMember(state, guildId, userId);
  let presences = state.presences.get(guildId);
  if (!presences) state.presences.set(guildId, (presences = new Map()));
  const presence = { status: b.status as PresenceUpdateStatus.Online, activities: b.status === 'offline' ? [] : activities };
  if (b.status === 'offline') presences.delete(userId);
  else presences.set(userId, presence);
  const d = presenceView(guildId, userId, presence);
  dispatch(state, { t: GatewayDispatchEvents.PresenceUpdate, d });
  return d;
}

/** The voice and presence control routes; patterns are relative to `/_sandbox`. */
export const voiceControlRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: '/guilds/:guild/voice/:user',
    handle: ({ state, params, body }) => ({ status: 200, body: setVoice(state, params.guild!, params.user!, body) }),
  },
  {
    method: 'PUT',
    pattern: '/guilds/:guild/presences/:user',
    handle: ({ state, params, body }) => ({ status: 200, body: setPresence(state, params.guild!, params.user!, body) }),
  },
];
