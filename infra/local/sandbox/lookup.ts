/**
 * Finding things in the sandbox state the way the platform does: unknown
 * or deleted answers 404 with the platform's code.
 */
import { unknownChannel, unknownInvite, unknownMessage } from './errors.js';
import type { SandboxState, StoredChannel, StoredInvite, StoredMessage } from './state.js';

/** A channel the sandbox knows and that was not deleted; 404 Unknown Channel otherwise. */
export function requireChannel(state: SandboxState, channelId: string): StoredChannel {
  const channel = state.channels.get(channelId);
  if (!channel || state.deletedChannels.has(channelId)) throw unknownChannel();
  return channel;
}

/**
 * The channel, created on first use as a guild text channel whose guild is
 * unknown (until a test declares it): posting needs no set-up. A deleted
 * channel stays deleted.
 */
export function ensureChannel(state: SandboxState, channelId: string): StoredChannel {
  if (state.deletedChannels.has(channelId)) throw unknownChannel();
  let channel = state.channels.get(channelId);
  if (!channel) {
    channel = { id: channelId, type: 0, guild_id: null, name: `channel-${channelId.slice(-4)}`, messages: new Map() };
    state.channels.set(channelId, channel);
  }
  return channel;
}

/** A message in a known channel; 404 Unknown Channel or Unknown Message otherwise. */
export function requireMessage(state: SandboxState, channelId: string, messageId: string): StoredMessage {
  const message = requireChannel(state, channelId).messages.get(messageId);
  if (!message) throw unknownMessage();
  return message;
}

/** True once an invite with a `max_age` has lived that long. */
export function isInviteExpired(invite: StoredInvite, now = Date.now()): boolean {
  return invite.max_age > 0 && invite.created_at.getTime() + invite.max_age * 1000 <= now;
}

/** An invite that still works: expired ones are gone, as on the platform. */
export function requireInvite(state: SandboxState, code: string, now = Date.now()): StoredInvite {
  const invite = state.invites.get(code);
  if (!invite) throw unknownInvite();
  if (isInviteExpired(invite, now)) {
    state.invites.delete(code);
    throw unknownInvite();
  }
  return invite;
}
