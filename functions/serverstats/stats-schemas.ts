/**
 * The request and answer schemas of every statistic family, built from its
 * shape in `families.ts`: the recording body, the fetch query, the record.
 */
import { z } from 'zod';
import { queryInt, snowflake } from '../../shared/http/schemas.js';
import { parseSnowflake } from '../../shared/ids.js';
import { type Family, type FamilyShape, filtersOf } from './families.js';

const shape = { status: 400 } as const;
const id = z.string().describe('Snowflake ID as a decimal string');
const time = z.string().describe('ISO 8601 UTC date-time');
const count = z.number().int().min(0).max(2 ** 31 - 1);

/** A query-string snowflake that may be left out or empty (both mean no filter). */
const queryFilterId = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === '' || value === 'null') return null;
    const parsed = parseSnowflake(value);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a snowflake ID (1 to 20 decimal digits within uint64), or left out', params: shape });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({ type: 'string', pattern: '^[0-9]{1,20}$', description: 'Snowflake ID; leave out for no filter.' });

export const ActivityInput = z.object({
  activity_type: z.number().int().min(0).max(255),
  name: z.string().min(1).max(128),
  details: z.string().max(256).nullish().transform((v) => v ?? null),
  state: z.string().max(256).nullish().transform((v) => v ?? null),
});

/** The fields a recording body adds to `guild_id`. */
function recordingFields(s: FamilyShape, method: 'POST' | 'PUT'): z.ZodRawShape {
  switch (s.kind) {
    case 'user':
    case 'member':
      return { [s.from]: snowflake };
    case 'none':
      return {};
    case 'number':
      return { [s.field]: z.number().min(0).max(1e12) };
    case 'statuses':
      return { online_count: count, offline_count: count, dnd_count: count };
    case 'total':
      return { current_members: count };
    case 'messages':
      return { channel_id: snowflake, author_id: snowflake, message_id: snowflake };
    case 'commands':
      return { initiator_id: snowflake, command: z.string().min(1).max(200) };
    case 'trigger-hit':
      return { creating_user_id: snowflake, trigger_id: z.string().min(1).max(100) };
    case 'presence':
      return { presence_user_id: snowflake, activities: z.array(ActivityInput).max(25) };
    case 'voice':
      return method === 'POST' ? { channel_id: snowflake, joined_member_id: snowflake } : { channel_id: snowflake, left_member_id: snowflake };
  }
}

/** The fields a record adds to `id` and `guild_id`. */
function recordFields(s: FamilyShape): z.ZodRawShape {
  switch (s.kind) {
    case 'user':
      return { user_id: id, timestamp: time };
    case 'member':
      return { member_id: id, timestamp: time };
    case 'none':
      return { timestamp: time };
    case 'number':
      return { [s.field]: z.number(), timestamp: time };
    case 'statuses':
      return { online_count: count, offline_count: count, dnd_count: count, timestamp: time };
    case 'total':
      return { current_members: count, timestamp: time };
    case 'messages':
      return { channel_id: id, message_id: id, author_id: id, timestamp: time };
    case 'commands':
      return { user_id: id, command: z.string(), timestamp: time };
    case 'trigger-hit':
      return { triggering_user_id: id, trigger_id: z.string(), timestamp: time };
    case 'presence':
      return { user_id: id, start_time: time, end_time: time.nullable(), presence_name: z.string(), activity_type: z.number().int() };
    case 'voice':
      return { channel_id: id, user_id: id, joined_at: time, left_at: time.nullable() };
  }
}

export function recordingBody(family: Family, method: 'POST' | 'PUT' = 'POST') {
  return z.object({ guild_id: snowflake, ...recordingFields(family.shape, method) });
}

export function statRecord(family: Family) {
  return z.object({ id: z.number().int().positive(), guild_id: id, ...recordFields(family.shape) });
}

export function fetchQuery(family: Family) {
  const filters = filtersOf(family.shape);
  return z.object({
    guild_id: snowflake,
    days: queryInt(z.number().int().min(1).max(30)).default(1),
    ...(filters.user ? { user_id: queryFilterId } : {}),
    ...(filters.channel ? { channel_id: queryFilterId } : {}),
    limit: queryInt(z.number().int().min(1).max(1000)).default(1000),
    cursor: z.string().max(4096).optional().describe('The `next_cursor` of the previous page.'),
  });
}

export function fetchAnswer(family: Family) {
  return z.object({ stats: z.array(statRecord(family)), next_cursor: z.string().nullable() });
}

export const RecordedAnswer = z.object({ message: z.string() });
