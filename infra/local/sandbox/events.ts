/**
 * What happens on the sandbox, in the platform's gateway dispatch shapes:
 * every route that changes something a bot could hear about calls
 * {@link dispatch}; the gateway (gateway.ts) hands the event to each session
 * whose intents cover it.
 */
import { GatewayDispatchEvents, type GatewayChannelModifyDispatchData } from 'discord-api-types/v10';
import type { SandboxEvent, SandboxState, StoredChannel } from './state.js';
import { channelView } from './views.js';

/** Tells every listener (the gateway's sessions) what happened. */
export function dispatch(state: SandboxState, event: SandboxEvent): void {
  for (const listener of state.listeners) listener(event);
}

/** A guild channel created or deleted (DM channels are not dispatched, as on the platform). */
export function dispatchChannel(state: SandboxState, created: boolean, channel: StoredChannel): void {
  if (!channel.guild_id) return;
  const d = { ...channelView(channel), guild_id: channel.guild_id } as GatewayChannelModifyDispatchData;
  dispatch(state, created ? { t: GatewayDispatchEvents.ChannelCreate, d } : { t: GatewayDispatchEvents.ChannelDelete, d });
}
