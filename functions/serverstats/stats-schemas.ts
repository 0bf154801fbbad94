/**
 * The request and answer schemas of every statistic family, built from its
 * shape in `families.ts`: the recording body, the fetch query, the record.
 */
import * as z from 'zod/mini';
import { describe, keyPagination, meta, orNull, queryInt, reject, snowflake, snowflakeText as id, storedNumber, textId } from '#shared/http/schemas.js';
import { parseSnowflake } from '#shared/ids.js';
import { type Family, type FamilyShape, filtersOf } from './families.js';
import { built } from '#shared/built.js';

const time = /* @__PURE__ */ built(() => describe(z.string(), 'ISO 8601 UTC date-time'));
const count = /* @__PURE__ */ built(() => z.int().check(z.gte(0), z.lte(2 ** 31 - 1)));

/** A query-string snowflake that may be left out (no filter); anything else that is not an ID (`null`, empty, non-digits) is malformed: 400. */
const queryFilterId = /* @__PURE__ */ built(() =>
  meta(
    z.pipe(
      z.optional(z.string()),
      z.transform((value, ctx) => {
        if (value === undefined) return null;
        const parsed = parseSnowflake(value);
        if (parsed === null) {
          return reject(
            ctx,
            `must be a snowflake ID (1 to 20 decimal digits within uint64), or left out for no filter; not ${value === '' ? 'empty' : `'${value.slice(0, 40)}'`}`,
          );
        }
        return parsed;
      }),
    ),
    { type: 'string', pattern: '^[0-9]{1,20}$', description: 'Snowflake ID; leave out for no filter.' },
  ),
);

export const ActivityInput = /* @__PURE__ */ built(() =>
  z.object({
    activity_type: z.int().check(z.gte(0), z.lte(255)),
    name: z.string().check(z.minLength(1), z.maxLength(128)),
    details: orNull(z.string().check(z.maxLength(256))),
    state: orNull(z.string().check(z.maxLength(256))),
  }),
);

/** The fields a recording body adds to `guild_id`. */
function recordingFields(s: FamilyShape, method: 'POST' | 'PUT'): z.core.$ZodShape {
  switch (s.kind) {
    case 'user':
    case 'member':
      return { [s.from]: snowflake };
    case 'none':
      return {};
    case 'number':
      return { [s.field]: storedNumber(z.number().check(z.gte(0), z.lte(1e12))) };
    case 'statuses':
      return { online_count: count, offline_count: count, dnd_count: count };
    case 'total':
      return { current_members: count };
    case 'messages':
      return { channel_id: snowflake, author_id: snowflake, message_id: snowflake };
    case 'commands':
      return { initiator_id: snowflake, command: z.string().check(z.minLength(1), z.maxLength(200)) };
    case 'trigger-hit':
      return { creating_user_id: snowflake, trigger_id: textId(z.string().check(z.maxLength(100))) };
    case 'presence':
      return { presence_user_id: snowflake, activities: z.array(ActivityInput).check(z.maxLength(25)) };
    case 'voice':
      return method === 'POST' ? { channel_id: snowflake, joined_member_id: snowflake } : { channel_id: snowflake, left_member_id: snowflake };
  }
}

/** The fields a record adds to `id` and `guild_id`. */
function recordFields(s: FamilyShape): z.core.$ZodShape {
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
      return { user_id: id, start_time: time, end_time: z.nullable(time), presence_name: z.string(), activity_type: z.int() };
    case 'voice':
      return { channel_id: id, user_id: id, joined_at: time, left_at: z.nullable(time) };
  }
}

export function recordingBody(family: Family, method: 'POST' | 'PUT' = 'POST') {
  return z.object({ guild_id: snowflake, ...recordingFields(family.shape, method) });
}

/** A recording body without `guild_id`: a record of a batch (the batch names the guild once). */
export function recordingFieldsOnly(family: Family, method: 'POST' | 'PUT' = 'POST') {
  return z.object(recordingFields(family.shape, method));
}

export function statRecord(family: Family) {
  return z.object({ id: z.int().check(z.positive()), guild_id: id, ...recordFields(family.shape) });
}

export function fetchQuery(family: Family) {
  const filters = filtersOf(family.shape);
  return z.object({
    guild_id: snowflake,
    days: z._default(queryInt(z.int().check(z.gte(1), z.lte(30))), 1),
    ...(filters.user ? { user_id: queryFilterId } : {}),
    ...(filters.channel ? { channel_id: queryFilterId } : {}),
    ...keyPagination,
  });
}

export function fetchAnswer(family: Family) {
  return z.object({ stats: z.array(statRecord(family)), next_cursor: z.nullable(z.string()) });
}

export const RecordedAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));
