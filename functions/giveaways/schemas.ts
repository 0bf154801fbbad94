/** The giveaways module's request and answer schemas (records of behaviour §11). */
import * as z from 'zod/mini';
import {
  channelId,
  describe,
  guildQuery,
  interactionFields,
  meta,
  orKeep,
  orNull,
  pageFields,
  pagination,
  queryInt,
  snowflake,
  snowflakeText as id,
} from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

export const SettingsRecord = /* @__PURE__ */ built(() =>
  meta(z.object({ id: z.int(), guild_id: id, save_duration_timeout: z.int(), delete_ended_giveaways: z.boolean() }), {
    id: 'GiveawaySettings',
  }),
);
export const SettingsAnswer = /* @__PURE__ */ z.object({ settings: SettingsRecord });
export const SettingsBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    save_duration_timeout: orKeep(z.int().check(z.gte(0), z.lte(31_536_000))),
    delete_ended_giveaways: orKeep(z.boolean()),
  }),
);

export const RoundRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      round: describe(z.int(), 'The round: 1 is the end, then 2, 3 ... one per reroll'),
      winners: describe(z.array(id), "The round's winners in the order drawn"),
      drawn_at: describe(z.string(), 'When the round was drawn'),
    }),
    { id: 'GiveawayRound' },
  ),
);

export const GiveawayRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: z.int(),
      guild_id: id,
      entry_id: z.string(),
      giveaway_id: z.string(),
      channel_id: id,
      message_id: z.nullable(id),
      owner_id: z.nullable(id),
      prize: z.string(),
      description: z.nullable(z.string()),
      winner_count: z.int(),
      status: z.enum(['running', 'ended']),
      end_time: describe(z.string(), 'When the giveaway ends (or ended): ISO 8601 UTC'),
      delete_at: describe(z.nullable(z.string()), 'When its data is deleted (the end + save_duration_timeout), ISO 8601 UTC; null while running'),
      edited_with_results: z.boolean(),
      participants: describe(
        z.nullable(z.string()),
        'Member IDs joined by commas, in numeric order, while there are at most 1000 entrants; null above (page them from /participants)',
      ),
      participant_count: describe(z.int(), 'How many members entered, exactly'),
      participants_hash: describe(
        z.nullable(z.string()),
        'Published at the end: the hash of the entrant list the draw read, in numeric order (behaviour §12.1; `npm run verify-draw` checks it); null before',
      ),
      winners: describe(z.string(), 'The latest round\'s winners, member IDs joined by commas ("" before the end)'),
      seed_hash: describe(z.string(), 'SHA-256 of the seed, lowercase hex, published from the start'),
      seed: describe(z.nullable(z.string()), 'The seed, published at the end (null while running)'),
      rounds: describe(z.array(RoundRecord), 'Every round of the draw, oldest first ([] while running); repeat them with `npm run verify-draw`'),
      created_at: z.string(),
    }),
    { id: 'Giveaway' },
  ),
);

export const EntryAnswer = /* @__PURE__ */ z.object({ entry: GiveawayRecord });
const nextCursor = /* @__PURE__ */ built(() =>
  describe(z.nullable(z.string()), 'Pass as `cursor` for the next page (read by key, the cheap way); null on the last page'),
);
export const EntriesAnswer = /* @__PURE__ */ built(() =>
  z.object({
    entries: z.array(GiveawayRecord),
    ...pageFields,
    page_size: z.int().check(z.gte(1), z.lte(50)),
    next_cursor: nextCursor,
  }),
);
export const ParticipantsAnswer = /* @__PURE__ */ built(() =>
  z.object({
    participants: describe(z.array(id), 'Member IDs in numeric order'),
    page: z.int().check(z.gte(1)),
    page_size: z.int().check(z.gte(1), z.lte(1000)),
    total: describe(z.int().check(z.gte(0)), 'participant_count'),
    next_cursor: nextCursor,
  }),
);
export const DeletedSettingsAnswer = /* @__PURE__ */ built(() =>
  z.object({
    settings: z.nullable(SettingsRecord),
    giveaways: describe(z.array(GiveawayRecord), 'The removed giveaways, newest first: at most 1000, as many as fit in the answer (behaviour §15)'),
    giveaways_total: describe(z.int().check(z.gte(0)), 'How many giveaways were removed'),
  }),
);
export const MessageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));

export const EntryPath = /* @__PURE__ */ built(() => z.object({ entry_id: z.string().check(z.minLength(1), z.maxLength(128)) }));
export const EntryQuery = guildQuery;

const cursor = /* @__PURE__ */ built(() =>
  describe(z.optional(z.string().check(z.maxLength(1024))), 'The `next_cursor` of the previous page; it names the page, so `page` is then ignored.'),
);
/** `GET /entries`: the page fields of behaviour §3.6, at most 50 giveaways a page. */
export const ListQuery = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    page: pagination.page,
    page_size: z._default(queryInt(z.int().check(z.gte(1), z.lte(50))), 10),
    cursor,
  }),
);
/** `GET /entries/{entry_id}/participants`: up to 1000 IDs a page. */
export const ParticipantsQuery = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    page: pagination.page,
    page_size: z._default(queryInt(z.int().check(z.gte(1), z.lte(1000))), 10),
    cursor,
  }),
);

export const CreateBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    channel_id: channelId,
    giveaway_owner_id: snowflake,
    prize: z.string().check(z.minLength(1), z.maxLength(256)),
    winner_count: z.int().check(z.gte(1), z.lte(50)),
    end_time: meta(
      z.pipe(
        z.nullish(z.string()),
        z.transform((v) => v ?? '1d'),
      ),
      {
        description:
          'When the giveaway ends, 1 second to 365 days ahead: a duration from now, a whole number followed by s (seconds), m (minutes), h (hours) or d (days) such as 30m or 7d (^[1-9][0-9]*[smhd]$), or an ISO 8601 date-time such as 2026-12-24T18:00:00Z. Null or left out: 1d.',
        examples: ['7d'],
      },
    ),
    description: orNull(z.string().check(z.maxLength(1000))),
    ...interactionFields,
  }),
);

export const EditBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    new_prize: orKeep(z.string().check(z.minLength(1), z.maxLength(256))),
    new_description: orKeep(z.string().check(z.maxLength(1000))),
    new_winner_count: orKeep(z.int().check(z.gte(1), z.lte(50))),
    ...interactionFields,
  }),
);

export const ActionBody = /* @__PURE__ */ built(() => z.object({ guild_id: snowflake, ...interactionFields }));
