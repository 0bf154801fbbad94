/** Gateway dispatch payloads as the platform sends them (discord-api-types shapes), for the bot's event table. */
import {
  type APIMessageComponentInteraction,
  type APIModalSubmitInteraction,
  ButtonStyle,
  ComponentType,
  GatewayDispatchEvents,
  type GatewayDispatchPayload,
  InteractionType,
} from 'discord-api-types/v10';

export const GUILD = '1100000000000000001';
export const CHANNEL = '1100000000000000002';
export const MESSAGE = '1100000000000000003';
export const MEMBER = '1100000000000000004';
export const BOT = '1100000000000000005';
export const APP = '1100000000000000006';

const user = (id: string, bot = false) => ({ id, username: `u${id.slice(-2)}`, discriminator: '0', global_name: null, avatar: null, ...(bot ? { bot } : {}) });

export const ready = (): GatewayDispatchPayload =>
  ({
    op: 0,
    s: 1,
    t: GatewayDispatchEvents.Ready,
    d: {
      v: 10,
      user: user(BOT, true),
      guilds: [],
      session_id: 's',
      resume_gateway_url: 'ws://127.0.0.1:1',
      application: { id: APP, flags: 0, flags_new: '0' },
    },
  }) as unknown as GatewayDispatchPayload;

export const reaction = (
  added: boolean,
  userId = MEMBER,
  emoji: { id: string | null; name: string | null } = { id: null, name: '👍' },
): GatewayDispatchPayload =>
  ({
    op: 0,
    s: 2,
    t: added ? GatewayDispatchEvents.MessageReactionAdd : GatewayDispatchEvents.MessageReactionRemove,
    d: { user_id: userId, channel_id: CHANNEL, message_id: MESSAGE, guild_id: GUILD, emoji, burst: false, type: 0 },
  }) as GatewayDispatchPayload;

export function click(customId: string, values?: string[]): APIMessageComponentInteraction {
  return {
    id: '1100000000000000010',
    application_id: APP,
    type: InteractionType.MessageComponent,
    token: 'interaction-token',
    version: 1,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: { user: user(MEMBER), roles: [], joined_at: '2026-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, permissions: '0' },
    message: { id: MESSAGE, channel_id: CHANNEL },
    data: values
      ? { custom_id: customId, component_type: ComponentType.StringSelect, values }
      : { custom_id: customId, component_type: ComponentType.Button, style: ButtonStyle.Primary },
  } as unknown as APIMessageComponentInteraction;
}

export function modal(customId: string, passphrase: string): APIModalSubmitInteraction {
  return {
    id: '1100000000000000011',
    application_id: APP,
    type: InteractionType.ModalSubmit,
    token: 'modal-token',
    version: 1,
    channel_id: CHANNEL,
    user: user(MEMBER),
    data: {
      custom_id: customId,
      components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.TextInput, custom_id: 'passphrase', value: passphrase }] }],
    },
  } as unknown as APIModalSubmitInteraction;
}

export const interaction = (d: APIMessageComponentInteraction | APIModalSubmitInteraction): GatewayDispatchPayload =>
  ({ op: 0, s: 3, t: GatewayDispatchEvents.InteractionCreate, d }) as GatewayDispatchPayload;

export const dispatch = (t: GatewayDispatchEvents, d: unknown): GatewayDispatchPayload => ({ op: 0, s: 4, t, d }) as GatewayDispatchPayload;

export const memberAdd = (id = MEMBER) =>
  dispatch(GatewayDispatchEvents.GuildMemberAdd, {
    guild_id: GUILD,
    user: user(id),
    roles: [],
    joined_at: '2026-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
    flags: 0,
  });
