/**
 * Sandbox control routes, under `/_sandbox` (outside the platform API): what
 * members do (post, react, vote, join), what the platform refuses (faults,
 * forbidden roles), and what tests read back (state, webhook answers,
 * request log).
 */
import { FormErrors, invalidField } from '../errors.js';
import { dispatchChannel } from '../events.js';
import { addFault, faultView } from '../faults.js';
import type { Route } from '../router.js';
import { snapshot } from '../snapshot.js';
import { rolesOf, resetState, type SandboxState, type StoredChannel, userOf } from '../state.js';
import { channelView, messageView } from '../views.js';
import { commandControlRoutes } from './commands.js';
import { forbiddenKey } from './guilds.js';
import { guildChannelControlRoutes } from './guild-channels.js';
import { memberControlRoutes, memberUpdated } from './members.js';
import { interactionControlRoutes } from './interactions.js';
import { inviteControlRoutes } from './invites.js';
import { postMessage } from './messages.js';
import { vote } from './polls.js';
import { addReaction, removeReaction } from './reactions.js';
import { voiceControlRoutes } from './voice.js';
import { webhookMessages } from './webhooks.js';

const SNOWFLAKE = /^[0-9]{1,20}$/;
const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

/** Declares or changes a channel: `{guild_id?, name?, type?}`; a deleted channel comes back. */
function putChannel(state: SandboxState, channelId: string, body: unknown): StoredChannel {
  const b = fieldsOf(body);
  const errors = new FormErrors();
  if (b.guild_id !== undefined && b.guild_id !== null && !(typeof b.guild_id === 'string' && SNOWFLAKE.test(b.guild_id))) {
    errors.add(['guild_id'], 'NUMBER_TYPE_COERCE', 'Must be a snowflake string.');
  }
  errors.throwIfAny();
  const isNew = !state.channels.has(channelId) || state.deletedChannels.has(channelId);
  state.deletedChannels.delete(channelId);
  const channel = state.channels.get(channelId) ?? { id: channelId, type: 0, guild_id: null, name: `channel-${channelId.slice(-4)}`, messages: new Map() };
  if (b.guild_id !== undefined) channel.guild_id = (b.guild_id as string | null) ?? null;
  if (typeof b.name === 'string') channel.name = b.name;
  if (typeof b.type === 'number') channel.type = b.type;
  state.channels.set(channelId, channel);
  if (isNew) dispatchChannel(state, true, channel);
  return channel;
}

/** A member posts: `{author_id, content?, embeds?, poll?}`. */
function memberPost(state: SandboxState, channelId: string, body: unknown) {
  const { author_id: authorId, ...message } = fieldsOf(body);
  if (typeof authorId !== 'string' || !SNOWFLAKE.test(authorId)) throw invalidField(['author_id'], 'NUMBER_TYPE_COERCE', 'Must be a snowflake string.');
  return messageView(postMessage(state, channelId, userOf(authorId), message));
}

function setRoles(state: SandboxState, guildId: string, userId: string, body: unknown) {
  const roles = fieldsOf(body).roles;
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string' && SNOWFLAKE.test(r))) {
    throw invalidField(['roles'], 'BASE_TYPE_ARRAY', 'Must be an array of snowflake strings.');
  }
  const held = rolesOf(state, guildId, userId);
  held.clear();
  for (const role of roles as string[]) held.add(role);
  return memberUpdated(state, guildId, userId);
}

const noContent = { status: 204 } as const;
const reaction = '/channels/:channel/messages/:message/reactions/:emoji/:user';
const pollVote = '/channels/:channel/messages/:message/poll/answers/:answer/:user';
const forbid = '/guilds/:guild/roles/:role/forbid';

/** The control routes; patterns are relative to `/_sandbox`. */
export const controlRoutes: Route[] = [
  { method: 'GET', pattern: '/state', handle: ({ state }) => ({ status: 200, body: snapshot(state) }) },
  { method: 'POST', pattern: '/reset', handle: ({ state }) => (resetState(state), noContent) },

  {
    method: 'PUT',
    pattern: '/channels/:channel',
    handle: ({ state, params, body }) => ({ status: 200, body: channelView(putChannel(state, params.channel!, body)) }),
  },
  {
    method: 'POST',
    pattern: '/channels/:channel/messages',
    handle: ({ state, params, body }) => ({ status: 200, body: memberPost(state, params.channel!, body) }),
  },
  { method: 'PUT', pattern: reaction, handle: ({ state, params: p }) => (addReaction(state, p.channel!, p.message!, p.emoji!, p.user!), noContent) },
  { method: 'DELETE', pattern: reaction, handle: ({ state, params: p }) => (removeReaction(state, p.channel!, p.message!, p.emoji!, p.user!), noContent) },
  { method: 'PUT', pattern: pollVote, handle: ({ state, params }) => (vote(state, params, true), noContent) },
  { method: 'DELETE', pattern: pollVote, handle: ({ state, params }) => (vote(state, params, false), noContent) },

  {
    method: 'PUT',
    pattern: '/guilds/:guild/members/:user',
    handle: ({ state, params, body }) => ({ status: 200, body: setRoles(state, params.guild!, params.user!, body) }),
  },
  { method: 'POST', pattern: forbid, handle: ({ state, params }) => (state.forbiddenRoles.add(forbiddenKey(params.guild!, params.role!)), noContent) },
  { method: 'DELETE', pattern: forbid, handle: ({ state, params }) => (state.forbiddenRoles.delete(forbiddenKey(params.guild!, params.role!)), noContent) },
  ...memberControlRoutes,
  ...guildChannelControlRoutes,
  ...inviteControlRoutes,
  ...interactionControlRoutes,
  ...commandControlRoutes,
  ...voiceControlRoutes,

  { method: 'GET', pattern: '/faults', handle: ({ state }) => ({ status: 200, body: state.faults.map(faultView) }) },
  { method: 'POST', pattern: '/faults', handle: ({ state, body }) => ({ status: 201, body: faultView(addFault(state, body)) }) },
  { method: 'DELETE', pattern: '/faults', handle: ({ state }) => ((state.faults = []), noContent) },

  {
    method: 'GET',
    pattern: '/webhooks/:application/:token',
    handle: ({ state, params }) => ({ status: 200, body: webhookMessages(state, params.application!, params.token!).map(messageView) }),
  },
  { method: 'GET', pattern: '/requests', handle: ({ state }) => ({ status: 200, body: state.requests }) },
  { method: 'DELETE', pattern: '/requests', handle: ({ state }) => ((state.requests = []), noContent) },
];
