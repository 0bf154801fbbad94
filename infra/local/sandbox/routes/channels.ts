/** Channel routes: read and delete a channel (dispatched as CHANNEL_DELETE), open a DM with a member. */
import { ChannelType } from '#shared/platform/types.js';
import { invalidField } from '../errors.js';
import { dispatchChannel } from '../events.js';
import { requireChannel } from '../lookup.js';
import type { Route } from '../router.js';
import { mintSnowflake, type SandboxState, type StoredChannel } from '../state.js';
import { channelView } from '../views.js';

/** Deletes a guild channel with its messages and invites; it stays Unknown Channel from then on. */
function deleteChannel(state: SandboxState, channelId: string): StoredChannel {
  const channel = requireChannel(state, channelId);
  for (const invite of [...state.invites.values()]) if (invite.channel_id === channelId) state.invites.delete(invite.code);
  state.channels.delete(channelId);
  if (channel.recipient_id)
    state.dms.delete(channel.recipient_id); // closing a DM; opening it again makes a new one
  else state.deletedChannels.add(channelId);
  dispatchChannel(state, false, channel);
  return channel;
}

/** The DM channel with a member: one per member, made on first use. */
function openDm(state: SandboxState, body: unknown): StoredChannel {
  const recipient = (body as { recipient_id?: unknown } | undefined)?.recipient_id;
  if (typeof recipient !== 'string' || !/^[0-9]{1,20}$/.test(recipient)) {
    throw invalidField(['recipient_id'], 'NUMBER_TYPE_COERCE', `Value "${String(recipient)}" is not snowflake.`);
  }
  const existing = state.dms.get(recipient);
  if (existing && state.channels.has(existing)) return state.channels.get(existing)!;
  const channel: StoredChannel = { id: mintSnowflake(), type: ChannelType.DM, guild_id: null, name: null, recipient_id: recipient, messages: new Map() };
  state.channels.set(channel.id, channel);
  state.dms.set(recipient, channel.id);
  return channel;
}

/** The channel routes of the platform API. */
export const channelRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/users/@me/channels',
    handle: ({ state, body }) => ({ status: 200, body: channelView(openDm(state, body)) }),
  },
  {
    method: 'GET',
    pattern: '/channels/:channel',
    handle: ({ state, params }) => ({ status: 200, body: channelView(requireChannel(state, params.channel!)) }),
  },
  {
    method: 'DELETE',
    pattern: '/channels/:channel',
    handle: ({ state, params }) => ({ status: 200, body: channelView(deleteChannel(state, params.channel!)) }),
  },
];
