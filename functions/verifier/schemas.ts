/** The verifier's request and answer schemas (records of contract 11). */
import { z } from 'zod';
import { channelSetting, nullableSnowflake, snowflake } from '../../shared/http/schemas.js';

const id = z.string().describe('Snowflake ID as a decimal string');
const optionalBool = z.boolean().nullish().transform((v) => v ?? undefined);
const optionalText = (max: number) => z.string().min(1).max(max).nullish().transform((v) => v ?? undefined);

export const SettingsRecord = z
  .object({
    id: z.number().int(),
    guild_id: id,
    verifier_type: z.number().int(),
    verifier_verified_role_ids: z.string().describe('Role IDs joined by commas'),
    verifier_message_is_embed: z.boolean(),
    verifier_message_content: z.string().nullable(),
    verifier_channel: id.nullable(),
    verifier_message_content_completed: z.string().nullable(),
    verifier_passphrase: z.string().nullable(),
    verifier_message_completed_is_embed: z.boolean(),
  })
  .meta({ id: 'VerifierSettings' });
export const SettingsAnswer = z.object({ settings: SettingsRecord });

export const SettingsBody = z
  .object({
    guild_id: snowflake,
    verifier_type: z.number().int().meta({ enum: [1, 2, 3] }).nullish().transform((v) => v ?? undefined),
    verifier_verified_role_ids: z.array(snowflake).max(25).nullish().transform((v) => (v == null ? undefined : [...new Set(v)].join(','))),
    verifier_message_is_embed: optionalBool,
    verifier_message_content: optionalText(6000),
    verifier_channel: channelSetting('prompts go as DMs'),
    verifier_message_content_completed: optionalText(6000),
    verifier_passphrase: optionalText(100),
    verifier_message_completed_is_embed: optionalBool,
  })
  .superRefine((body, ctx) => {
    if (body.verifier_type !== undefined && ![1, 2, 3].includes(body.verifier_type)) {
      ctx.addIssue({ code: 'custom', path: ['verifier_type'], message: 'must be 1 (click to pass), 2 (passphrase) or 3 (web)' });
    }
  });
export type SettingsInput = z.output<typeof SettingsBody>;

export const EntryRecord = z
  .object({
    id: z.number().int(),
    guild_id: id,
    verifier_id: z.string(),
    user_id: id,
    requester_id: id.nullable(),
    is_verified: z.boolean(),
    verify_message_id: id.nullable(),
    verify_channel_id: id.nullable(),
    timestamp: z.string(),
    verified_at: z.string().nullable(),
    failed_attempts: z.number().int(),
  })
  .meta({ id: 'Verification' });
export const EntriesAnswer = z.object({ entries: z.array(EntryRecord) });
export const EntryAnswer = z.object({ entry: EntryRecord });
export const DeletedSettingsAnswer = z.object({ settings: SettingsRecord.nullable(), entries: z.array(EntryRecord) });
export const MessageAnswer = z.object({ message: z.string() });
export const CreatedAnswer = z.object({ message: z.string(), verifier_id: z.string() });

export const EntryPath = z.object({ entry_id: z.string().min(1).max(128) });
export const CreateBody = z.object({ guild_id: snowflake, requester: nullableSnowflake, application_id: nullableSnowflake, token: z.string().nullish().transform((v) => v ?? null) });
export const HandleBody = z.object({
  verifier_id: z.string().min(1).max(128),
  guild_id: nullableSnowflake,
  interaction_id: nullableSnowflake,
  token: z.string().max(500).nullish().transform((v) => v ?? null),
  interaction_type: z.enum(['ComponentInteraction', 'ModalInteraction']).nullish().transform((v) => v ?? null),
  passphrase_value: z.string().max(100).nullish().transform((v) => v ?? null),
});
export const WebPath = z.object({ verifier_id: z.string().min(1).max(128) });
export const WebQuery = z.object({ token: z.string().max(200).optional() });

export const PrivacyQuery = z.object({ guild_id: snowflake, privacy_member_id: snowflake });
export const PrivacyCounts = z.object({ username: z.number().int(), display_name: z.number().int(), global_name: z.number().int(), nickname: z.number().int(), id: z.number().int() });
