/** The whole sandbox state as plain JSON, for `GET /_sandbox/state` and the HTML page. */
import { faultView } from './faults.js';
import { isInviteExpired } from './lookup.js';
import { sourcesView } from './sources/model.js';
import { BOT_USER, type SandboxState } from './state.js';
import { channelView, inviteView, messageView } from './views.js';

/** Everything the sandbox holds; Maps and Sets become objects and arrays. */
export function snapshot(state: SandboxState) {
  const members: Record<string, Record<string, string[]>> = {};
  for (const [guildId, users] of state.members) {
    members[guildId] = Object.fromEntries([...users].map(([userId, roles]) => [userId, [...roles]]));
  }
  return {
    bot_user: BOT_USER,
    channels: [...state.channels.values()].map((channel) => ({
      ...channelView(channel),
      messages: [...channel.messages.values()].map(messageView),
    })),
    deleted_channels: [...state.deletedChannels],
    members,
    forbidden_roles: [...state.forbiddenRoles].map((key) => {
      const [guild_id, role_id] = key.split('/');
      return { guild_id, role_id };
    }),
    invites: [...state.invites.values()].filter((i) => !isInviteExpired(i)).map((i) => inviteView(state, i, true)),
    dm_channels: Object.fromEntries(state.dms),
    guilds: [...state.guilds.values()].map((guild) => ({
      id: guild.id,
      name: guild.name,
      members: guild.members && Object.fromEntries([...guild.members].map(([id, m]) => [id, { joined_at: m.joined_at.toISOString(), nick: m.nick }])),
      roles: guild.roles ? Object.fromEntries(guild.roles) : {},
      owner_id: guild.owner_id ?? null,
      /** Permission bits members were given without a role, by user ID. */
      grants: guild.grants ? Object.fromEntries(guild.grants) : {},
    })),
    interactions: state.interactions,
    /** Application commands, global (no `guild_id`) and per guild, as registered. */
    commands: [...state.commands.values()],
    /** Interactions members started (clicks, modal submits): who, on what, and the token their answers are kept under. */
    started: [...state.started.values()].map(({ interaction, token }) => ({
      id: interaction.id,
      token,
      type: interaction.type,
      user_id: interaction.member?.user.id ?? interaction.user?.id ?? null,
      custom_id: interaction.data && 'custom_id' in interaction.data ? interaction.data.custom_id : null,
      /** A command run (type 2) or typed (type 4): its name. */
      command: interaction.data && 'name' in interaction.data ? interaction.data.name : null,
      channel_id: interaction.channel_id ?? null,
    })),
    voice: Object.fromEntries([...state.voice].map(([guildId, users]) => [guildId, Object.fromEntries(users)])),
    presences: Object.fromEntries([...state.presences].map(([guildId, users]) => [guildId, Object.fromEntries([...users].map(([id, p]) => [id, p.status]))])),
    vanity: Object.fromEntries(state.vanity),
    users: Object.fromEntries(state.users),
    dm_refusers: [...state.dmRefusers],
    webhooks: Object.fromEntries([...state.webhooks].map(([key, messages]) => [key, messages.map(messageView)])),
    faults: state.faults.map(faultView),
    request_count: state.requests.length,
    sources: sourcesView(state.sources),
  };
}

/** The shape of {@link snapshot}. */
export type SandboxSnapshot = ReturnType<typeof snapshot>;
