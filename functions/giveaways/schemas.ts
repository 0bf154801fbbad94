/** The giveaways module's request and answer schemas (records of contract 11). */
import { z } from 'zod';
import { guildQuery, nullableSnowflake, snowflake } from '../../shared/http/schemas.js';

const id = z.string().describe('Snowflake ID as a decimal string');
const nullableString = z.string().nullish().transform((v) => v ?? null);
const interaction = { application_id: nullableSnowflake, token: nullableString };

export const SettingsRecord = z
  .object({ id: z.number().int(), guild_id: id, save_duration_timeout: z.number().int(), delete_ended_giveaways: z.boolean() })
  .meta({ id: 'GiveawaySettings' });
export const SettingsAnswer = z.object({ settings: SettingsRecord });
export const SettingsBody = z.object({
  guild_id: snowflake,
  save_duration_timeout: z.number().int().min(0).max(31_536_000).nullish().transform((v) => v ?? undefined),
  delete_ended_giveaways: z.boolean().nullish().transform((v) => v ?? undefined),
});

export const GiveawayRecord = z
  .object({
    id: z.number().int(),
    guild_id: id,
    entry_id: z.string(),
    giveaway_id: z.string(),
    channel_id: id,
    message_id: id.nullable(),
    owner_id: id.nullable(),
    prize: z.string(),
    description: z.string().nullable(),
    winner_count: z.number().int(),
    status: z.enum(['running', 'ended']),
    end_time: z.string(),
    delete_at: z.string().nullable(),
    edited_with_results: z.boolean(),
    participants: z.string().describe('Member IDs joined by commas, in numeric order'),
    participant_count: z.number().int(),
    winners: z.string().describe('Member IDs joined by commas ("" before the end)'),
    seed_hash: z.string().describe('SHA-256 of the seed, lowercase hex, published from the start'),
    seed: z.string().nullable().describe('The seed, published at the end (null while running)'),
    created_at: z.string(),
  })
  .meta({ id: 'Giveaway' });

export const EntryAnswer = z.object({ entry: GiveawayRecord });
export const EntriesAnswer = z.object({ entries: z.array(GiveawayRecord) });
export const DeletedSettingsAnswer = z.object({ settings: SettingsRecord.nullable(), giveaways: z.array(GiveawayRecord) });
export const MessageAnswer = z.object({ message: z.string() });

export const EntryPath = z.object({ entry_id: z.string().min(1).max(128) });
export const EntryQuery = guildQuery;

export const CreateBody = z.object({
  guild_id: snowflake,
  channel_id: snowflake,
  giveaway_owner_id: snowflake,
  prize: z.string().min(1).max(256),
  winner_count: z.number().int().min(1).max(50),
  end_time: z.string().nullish().transform((v) => v ?? '1d'),
  description: z.string().max(1000).nullish().transform((v) => v ?? null),
  ...interaction,
});

export const EditBody = z.object({
  guild_id: snowflake,
  new_prize: z.string().min(1).max(256).nullish().transform((v) => v ?? undefined),
  new_description: z.string().max(1000).nullish().transform((v) => v ?? undefined),
  new_winner_count: z.number().int().min(1).max(50).nullish().transform((v) => v ?? undefined),
  ...interaction,
});

export const ActionBody = z.object({ guild_id: snowflake, ...interaction });

export const PrivacyQuery = z.object({ guild_id: snowflake, privacy_member_id: snowflake });
export const PrivacyCounts = z.object({ username: z.number().int(), display_name: z.number().int(), global_name: z.number().int(), nickname: z.number().int(), id: z.number().int() });
