/**
 * Request and answer schemas of the serverstats settings, counters,
 * starboard and privacy routes (statistic families: `stats-schemas.ts`).
 */
import * as z from 'zod/mini';
import {
  booleanSetting,
  brokenRule,
  channelId,
  codedInt,
  meta,
  nullableRoleId,
  nullableSnowflake,
  orKeep,
  orNull,
  owned,
  reject,
  snowflake,
  snowflakeText as id,
} from '#shared/http/schemas.js';
import { parseSnowflake } from '#shared/ids.js';
import { STATS_TOGGLES } from '#shared/modules/catalogue.js';
import { COUNTER_TYPE_MEANINGS, counterProblem } from './counter-rules.js';
import { built } from '#shared/built.js';

const counterType = /* @__PURE__ */ codedInt(
  COUNTER_TYPE_MEANINGS,
  'Type 3 (online members with a role) is not offered: no platform REST call gives presence by role (422).',
);

/**
 * A channel setting of PUT /settings: a snowflake, `"create"` (the service
 * creates the channel), `""` (clears it), or null / left out (unchanged).
 */
const channelSetting = /* @__PURE__ */ built(() =>
  meta(
    z.pipe(
      z.optional(z.unknown()),
      z.transform((value, ctx): string | undefined => {
        if (value === undefined || value === null) return undefined;
        if (value === '' || value === 'create') return value;
        const parsed = parseSnowflake(value);
        if (parsed === null) {
          return reject(ctx, 'must be a snowflake ID, "create" (the service creates the channel), "" (clears it) or null (unchanged)');
        }
        return parsed;
      }),
    ),
    { anyOf: [{ type: 'string', pattern: '^([0-9]{1,20}|create)?$' }, { type: 'null' }] },
  ),
);

export const SettingsRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    counters_enabled: z.boolean(),
    counters_category_id: z.nullable(id),
    starboard_enabled: z.boolean(),
    starboard_channel_id: z.nullable(id),
    starboard_count: z.string(),
    ...Object.fromEntries(STATS_TOGGLES.map((name) => [name, z.boolean()])),
  }),
);

export const SettingsAnswer = /* @__PURE__ */ z.object({ settings: SettingsRecord });

export const SettingsBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    counters_enabled: booleanSetting,
    counters_category_id: owned(channelSetting, { kind: 'category' }),
    starboard_enabled: booleanSetting,
    starboard_channel_id: owned(channelSetting, { kind: 'channel' }),
    starboard_count: orKeep(z.int().check(z.gte(1), z.lte(100))),
    ...Object.fromEntries(STATS_TOGGLES.map((name) => [name, booleanSetting])),
  }),
);
export type SettingsInput = z.output<typeof SettingsBody>;

export const CounterRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    counter_id: z.string(),
    channel_id: id,
    counter_type: counterType,
    format: z.string(),
    role_id: z.nullable(id),
    goal_count: z.nullable(z.int()),
    value: z.nullable(z.string()),
    updated_at: z.nullable(z.string()),
  }),
);

export const StarboardEntryRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    original_message_id: id,
    original_channel_id: id,
    starboard_message_id: id,
    star_count: z.int(),
    monitoring_start: z.string(),
  }),
);

export const DeletedAnswer = /* @__PURE__ */ built(() =>
  z.object({
    settings: z.nullable(SettingsRecord),
    counters: z.array(CounterRecord),
    starboard_entries: z.array(StarboardEntryRecord),
    /** Added (behaviour §15): how many starboard entries were removed; `starboard_entries` shows the newest 1000. */
    starboard_entries_total: z.int(),
    /** Added (behaviour §15): the statistic records read as gone now and are removed behind the answer. */
    message: z.string(),
  }),
);

export const MessageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));

export const CounterPath = /* @__PURE__ */ built(() => z.object({ counter_id: z.string().check(z.minLength(1), z.maxLength(64)) }));
export const CounterAnswer = /* @__PURE__ */ z.object({ counter: CounterRecord });
export const CountersAnswer = /* @__PURE__ */ built(() => z.object({ counters: z.array(CounterRecord) }));

export const CreateCounterBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      counter_type: counterType,
      new_format: orNull(z.string().check(z.maxLength(200))),
      new_role_id: nullableRoleId,
      new_goal: orNull(z.int().check(z.gte(0), z.lte(2 ** 31 - 1))),
    })
    .check(
      z.superRefine((body, ctx) => {
        brokenRule(ctx, counterProblem(body));
      }),
    ),
);

export const UpdateCountersBody = /* @__PURE__ */ z.object({ guild_id: nullableSnowflake });
/** An event about a channel the platform deleted: not checked (behaviour §13). */
export const ChannelBody = /* @__PURE__ */ z.object({ guild_id: snowflake, channel_id: snowflake });
/** The starboard's channel, set up by a client: the guild's. */
export const StarboardBody = /* @__PURE__ */ z.object({ guild_id: snowflake, channel_id: channelId });
/** A star added or removed: the message is read in its channel, which is the guild's. */
export const MessageCheckBody = /* @__PURE__ */ z.object({ guild_id: snowflake, channel_id: channelId, message_id: snowflake });
export const DeletedMessageBody = /* @__PURE__ */ z.object({ guild_id: snowflake, message_id: snowflake });
