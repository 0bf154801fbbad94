/** The invite tracker's request and answer schemas (records of contract 11). */
import { z } from 'zod';
import { channelSetting, guildQuery, nullableSnowflake, snowflake } from '../../shared/http/schemas.js';

const id = z.string().describe('Snowflake ID as a decimal string');
const interaction = { application_id: nullableSnowflake, token: z.string().nullish().transform((v) => v ?? null) };
const optionalBool = z.boolean().nullish().transform((v) => v ?? undefined);
const optionalText = (max: number) => z.string().max(max).nullish().transform((v) => v ?? undefined);

export const SettingsRecord = z
  .object({
    id: z.number().int(),
    guild_id: id,
    join_messages_enabled: z.boolean(),
    join_messages_channel: id.nullable(),
    join_message_is_embed: z.boolean(),
    join_message_content: z.string().nullable(),
    leave_messages_enabled: z.boolean(),
    leave_messages_channel: id.nullable(),
    leave_message_is_embed: z.boolean(),
    leave_message_content: z.string().nullable(),
    prevent_own_invite_code: z.boolean(),
    server_shared_invite_link: z.string().nullable(),
  })
  .meta({ id: 'InviteTrackerSettings' });
export const SettingsAnswer = z.object({ settings: SettingsRecord });
export const SettingsBody = z.object({
  guild_id: snowflake,
  join_messages_enabled: optionalBool,
  join_messages_channel: channelSetting(),
  join_message_is_embed: optionalBool,
  join_message_content: optionalText(6000),
  leave_messages_enabled: optionalBool,
  leave_messages_channel: channelSetting(),
  leave_message_is_embed: optionalBool,
  leave_message_content: optionalText(6000),
  prevent_own_invite_code: optionalBool,
  server_shared_invite_link: optionalText(512),
});
export type SettingsInput = z.output<typeof SettingsBody>;

export const InviteRecord = z
  .object({
    id: z.number().int(),
    guild_id: id,
    invite_id: z.string().describe('The invite code'),
    channel_id: id.nullable(),
    current_uses: z.number().int(),
    max_uses: z.number().int(),
    expires_at: z.string().nullable(),
    owner_id: id.nullable(),
  })
  .meta({ id: 'Invite' });

export const UseRecord = z
  .object({
    id: z.number().int(),
    guild_id: id,
    invite_id: z.string().nullable(),
    member_id: id,
    timestamp: z.string(),
    channel_id: id.nullable(),
    inviter_id: id.nullable(),
    has_left: z.boolean(),
    attribution: z.enum(['exact', 'ambiguous', 'vanity', 'unknown']),
    counted: z.boolean(),
  })
  .meta({ id: 'InviteUse' });

export const InvitesAnswer = z.object({ invites: z.array(InviteRecord) });
export const UsesAnswer = z.object({ stats_uses: z.array(UseRecord) });
export const CreatedAnswer = z.object({ invite_code: z.string(), invite_url: z.string(), invite: InviteRecord });
export const DeletedSettingsAnswer = z.object({ settings: SettingsRecord.nullable(), invites: z.array(InviteRecord), stats_uses: z.array(UseRecord) });
export const MessageAnswer = z.object({ message: z.string() });

export const CreateInviteBody = z.object({
  guild_id: snowflake,
  channel_id: snowflake,
  max_uses: z.number().int().min(0).max(100),
  max_age: z.number().int().min(0).max(604_800),
  is_temporary: z.boolean(),
  ...interaction,
});
const code = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);
export const DeleteInviteBody = z.object({ guild_id: snowflake, invite_code: code, ...interaction });
export const InviteEventBody = z.object({ guild_id: snowflake, invite_code: code });
export const InviteCreatedBody = z.object({ guild_id: snowflake, invite_code: code, channel_id: snowflake });
export const UsesQuery = guildQuery.extend({ inviter_id: snowflake });
export const PrivacyQuery = z.object({ guild_id: snowflake, privacy_member_id: snowflake });
export const PrivacyCounts = z.object({ username: z.number().int(), display_name: z.number().int(), global_name: z.number().int(), nickname: z.number().int(), id: z.number().int() });
