/**
 * Request and answer schemas of the serverstats settings, counters,
 * starboard and privacy routes (statistic families: `stats-schemas.ts`).
 */
import { z } from 'zod';
import { nullableSnowflake, snowflake } from '../../shared/http/schemas.js';
import { parseSnowflake } from '../../shared/ids.js';
import { STATS_TOGGLES } from '../../shared/modules/catalogue.js';
import { counterProblem } from './counter-rules.js';

const shape = { status: 400 } as const;
const id = z.string().describe('Snowflake ID as a decimal string');
const optionalBool = z.boolean().nullish().transform((v) => v ?? undefined);

/**
 * A channel setting of PUT /settings: a snowflake, `"create"` (the service
 * creates the channel), `""` (clears it), or null / left out (unchanged).
 */
const channelSetting = z
  .unknown()
  .optional()
  .transform((value, ctx): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (value === '' || value === 'create') return value;
    const parsed = parseSnowflake(value);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a snowflake ID, "create" (the service creates the channel), "" (clears it) or null (unchanged)', params: shape });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({ anyOf: [{ type: 'string', pattern: '^([0-9]{1,20}|create)?$' }, { type: 'null' }] });

export const SettingsRecord = z.object({
  id: z.number().int(),
  guild_id: id,
  counters_enabled: z.boolean(),
  counters_category_id: id.nullable(),
  starboard_enabled: z.boolean(),
  starboard_channel_id: id.nullable(),
  starboard_count: z.string(),
  ...Object.fromEntries(STATS_TOGGLES.map((name) => [name, z.boolean()])),
});

export const SettingsAnswer = z.object({ settings: SettingsRecord });

export const SettingsBody = z.object({
  guild_id: snowflake,
  counters_enabled: optionalBool,
  counters_category_id: channelSetting,
  starboard_enabled: optionalBool,
  starboard_channel_id: channelSetting,
  starboard_count: z.number().int().min(1).max(100).nullish().transform((v) => v ?? undefined),
  ...Object.fromEntries(STATS_TOGGLES.map((name) => [name, optionalBool])),
});
export type SettingsInput = z.output<typeof SettingsBody>;

export const CounterRecord = z.object({
  id: z.number().int(),
  guild_id: id,
  counter_id: z.string(),
  channel_id: id,
  counter_type: z.number().int(),
  format: z.string(),
  role_id: id.nullable(),
  goal_count: z.number().int().nullable(),
  value: z.string().nullable(),
  updated_at: z.string().nullable(),
});

export const StarboardEntryRecord = z.object({
  id: z.number().int(),
  guild_id: id,
  original_message_id: id,
  original_channel_id: id,
  starboard_message_id: id,
  star_count: z.number().int(),
  monitoring_start: z.string(),
});

export const DeletedAnswer = z.object({
  settings: SettingsRecord.nullable(),
  counters: z.array(CounterRecord),
  starboard_entries: z.array(StarboardEntryRecord),
});

export const PrivacyQuery = z.object({ guild_id: snowflake, privacy_member_id: snowflake });
export const PrivacyBody = PrivacyQuery;
export const PrivacyCounts = z.object({
  username: z.number().int(),
  display_name: z.number().int(),
  global_name: z.number().int(),
  nickname: z.number().int(),
  id: z.number().int(),
});
export const MessageAnswer = z.object({ message: z.string() });

export const CounterPath = z.object({ counter_id: z.string().min(1).max(64) });
export const CounterAnswer = z.object({ counter: CounterRecord });
export const CountersAnswer = z.object({ counters: z.array(CounterRecord) });

export const CreateCounterBody = z
  .object({
    guild_id: snowflake,
    counter_type: z.number().int(),
    new_format: z.string().max(200).nullish().transform((v) => v ?? null),
    new_role_id: nullableSnowflake,
    new_goal: z.number().int().min(0).max(2 ** 31 - 1).nullish().transform((v) => v ?? null),
  })
  .superRefine((body, ctx) => {
    const problem = counterProblem(body);
    if (problem) ctx.addIssue({ code: 'custom', path: [], message: problem });
  });

export const UpdateCountersBody = z.object({ guild_id: nullableSnowflake });
export const ChannelBody = z.object({ guild_id: snowflake, channel_id: snowflake });
export const MessageCheckBody = z.object({ guild_id: snowflake, channel_id: snowflake, message_id: snowflake });
export const DeletedMessageBody = z.object({ guild_id: snowflake, message_id: snowflake });
