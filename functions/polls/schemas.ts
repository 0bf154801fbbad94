/**
 * The polls module's request schemas: shape (400) field by field, then the
 * rules spanning fields (422) in one refinement per body, worded by
 * `rules.ts`. Fields the user document says "may be None" accept null or
 * absence; fields ignored for native polls may be left out for them.
 */
import * as z from 'zod/mini';
import {
  brokenRule,
  channelId,
  codedInt,
  codedMeta,
  describe,
  guildQuery,
  interactionFields,
  interactionProblem,
  meta,
  nullableMessageIn,
  nullableSnowflake,
  orNull,
  pageFields,
  pagination,
  queryInt,
  recordId,
  snowflake,
  snowflakeOut,
  timestamp,
  textId,
} from '#shared/http/schemas.js';
import { ANSWER_TYPE_MEANINGS, LISTED_VOTES, POLL_TYPE_MEANINGS, PollType } from './model.js';
import {
  MAX_VOTES_PER_ANSWER,
  POLL_ID_PATTERN,
  answersProblem,
  descriptionProblem,
  durationProblem,
  fitProblem,
  maxVotesProblem,
  questionProblem,
  serviceFieldsProblem,
} from './rules.js';
import { built } from '#shared/built.js';

/** A string that may be null or left out (both mean null). */
const nullableString = /* @__PURE__ */ built(() => orNull(z.string()));
const nullableInt = /* @__PURE__ */ built(() => orNull(z.int()));
const nullableBool = /* @__PURE__ */ built(() => orNull(z.boolean()));
/** The shared `nullableSnowflake` insists on the key being present; "may be None" also allows leaving it out. */

export const AnswerInputSchema = /* @__PURE__ */ built(() =>
  z.object({
    answer_text: z.string(),
    label: nullableString,
    description: nullableString,
    emoji_name: nullableString,
    emoji_id: nullableSnowflake,
    votes: z.nullish(z.array(z.unknown())),
  }),
);

/** `application_id` and `token` of the interaction to answer, when the request comes from one. */

const pollTypeProblem = (type: number) =>
  type === PollType.Native || type === PollType.Service ? null : "Field 'poll_type' must be 1 (platform-native poll) or 2 (service poll).";

/** The poll fields create and handler/create share, and their rules. */
const pollFields = /* @__PURE__ */ built(() => ({
  guild_id: snowflake,
  channel_id: channelId,
  poll_type: codedInt(POLL_TYPE_MEANINGS),
  message_id: nullableMessageIn('channel_id'),
  // The values are listed only where poll_type is 2 (below): native polls ignore the field.
  poll_answer_type: meta(nullableInt, {
    description: `Service polls (poll_type 2) only; ignored for native polls. ${codedMeta(ANSWER_TYPE_MEANINGS).description}`,
    'x-enumDescriptions': ANSWER_TYPE_MEANINGS,
  }),
  question: z.string(),
  description: nullableString,
  answers: z.array(AnswerInputSchema),
  is_multi_select: z.boolean(),
  is_anonymous: nullableBool,
  max_votes_per_answer: nullableInt,
  poll_owner_id: nullableSnowflake,
}));

type PollFieldsValue = z.output<z.ZodMiniObject<typeof pollFields>>;

/** The document's statement of the service-poll rule (`pollRules`): a service poll says how members answer. */
const servicePoll = /* @__PURE__ */ built(() => ({
  if: { properties: { poll_type: { const: 2 } }, required: ['poll_type'] },
  then: {
    required: ['poll_answer_type', 'is_anonymous', 'max_votes_per_answer'],
    properties: {
      poll_answer_type: codedMeta(ANSWER_TYPE_MEANINGS),
      is_anonymous: { type: 'boolean' },
      max_votes_per_answer: { type: 'integer', minimum: 1, maximum: MAX_VOTES_PER_ANSWER },
    },
  },
}));

function pollRules(body: PollFieldsValue, ctx: z.core.$RefinementCtx): void {
  if (brokenRule(ctx, pollTypeProblem(body.poll_type))) return;
  const service = body.poll_type === PollType.Service;
  if (brokenRule(ctx, questionProblem(body.question, body.poll_type))) return;
  if (service && brokenRule(ctx, serviceFieldsProblem(body))) return;
  if (brokenRule(ctx, answersProblem(body.poll_type, service ? body.poll_answer_type : null, body.answers))) return;
  if (service) {
    brokenRule(
      ctx,
      fitProblem({
        poll_id: 'x'.repeat(64),
        poll_answer_type: body.poll_answer_type as 1 | 2 | 3,
        question: body.question,
        description: body.description,
        answers: body.answers.map((a, i) => ({ ...a, answer_id: i + 1 })),
        status: 'open',
        end_time: Date.now(),
        is_anonymous: Boolean(body.is_anonymous),
        is_multi_select: body.is_multi_select,
        max_votes_per_answer: body.max_votes_per_answer ?? 1,
      }),
    );
  }
}

/** How long a poll runs: a duration (its rule, 422, is the poll type's range). */
const pollDuration = /* @__PURE__ */ built(() =>
  meta(z.string(), {
    description:
      'How long the poll runs: a whole number followed by a unit, s (seconds), m (minutes), h (hours) or d (days), such as 45s, 30m, 12h or 7d. Platform-native polls (poll_type 1): 1 hour to 32 days; service polls: at most 365 days.',
    pattern: '^[1-9][0-9]*[smhd]$',
    examples: ['1d'],
  }),
);

/** POST /entries */
export const CreatePollBody = /* @__PURE__ */ built(() =>
  meta(
    z.object({ ...pollFields, poll_owner_id: snowflake, poll_duration: pollDuration, ...interactionFields }).check(
      z.superRefine((body, ctx) => {
        if (brokenRule(ctx, pollTypeProblem(body.poll_type))) return;
        if (body.message_id !== null && brokenRule(ctx, "Field 'message_id' must be null when creating a poll: the service posts the poll message itself."))
          return;
        if (brokenRule(ctx, durationProblem(body.poll_duration, body.poll_type))) return;
        if (brokenRule(ctx, interactionProblem(body.application_id, body.token))) return;
        pollRules(body, ctx);
      }),
    ),
    { allOf: [servicePoll, { properties: { message_id: { type: 'null', description: 'Must be null: the service posts the poll message itself' } } }] },
  ),
);

/** POST /handler/create: a poll the bot registers with its own ID and times (epoch seconds). */
export const HandlerCreateBody = /* @__PURE__ */ built(() =>
  meta(
    z
      .object({
        ...pollFields,
        poll_id: textId(),
        edited_with_results: z.boolean(),
        end_time: describe(z.int(), 'When the poll ends, in epoch seconds (UTC)'),
        delete_at: describe(nullableInt, 'When the poll is deleted, in epoch seconds (UTC), or null'),
        language: nullableString,
        auto_delete: nullableInt,
        sent_by_service: z.boolean(),
      })
      .check(
        z.superRefine((body, ctx) => {
          if (brokenRule(ctx, POLL_ID_PATTERN.test(body.poll_id) ? null : "Field 'poll_id' must be 1 to 64 letters, digits, '-' or '_'.")) return;
          if (brokenRule(ctx, body.end_time > 0 && body.end_time < 253402300800 ? null : "Field 'end_time' must be a time in epoch seconds.")) return;
          if (
            body.delete_at !== null &&
            brokenRule(ctx, body.delete_at > 0 && body.delete_at < 253402300800 ? null : "Field 'delete_at' must be a time in epoch seconds, or null.")
          )
            return;
          pollRules(body, ctx);
        }),
      ),
    { allOf: [servicePoll] },
  ),
);

/** The fields of an edit (PUT /entry/{poll_id} and handler/edit). */
const editFields = /* @__PURE__ */ built(() => ({
  guild_id: snowflake,
  question: z.string(),
  description: nullableString,
  max_votes_per_answer: z.int(),
  is_multi_select: z.boolean(),
  is_anonymous: z.boolean(),
}));

function editRules(body: { question: string; description: string | null; max_votes_per_answer: number }, ctx: z.core.$RefinementCtx): void {
  if (brokenRule(ctx, questionProblem(body.question, PollType.Service))) return;
  if (brokenRule(ctx, descriptionProblem(body.description))) return;
  brokenRule(ctx, maxVotesProblem(body.max_votes_per_answer));
}

export const EditPollBody = /* @__PURE__ */ built(() =>
  z.object({ ...editFields, ...interactionFields }).check(
    z.superRefine((body, ctx) => {
      if (brokenRule(ctx, interactionProblem(body.application_id, body.token))) return;
      editRules(body, ctx);
    }),
  ),
);

export const HandlerEditBody = /* @__PURE__ */ built(() => z.object({ ...editFields, poll_id: textId() }).check(z.superRefine(editRules)));

/** Close and delete by the owner: the guild and the interaction to answer. */
export const OwnerActionBody = /* @__PURE__ */ built(() =>
  z.object({ guild_id: snowflake, ...interactionFields }).check(
    z.superRefine((body, ctx) => {
      brokenRule(ctx, interactionProblem(body.application_id, body.token));
    }),
  ),
);

export const PollPath = /* @__PURE__ */ built(() => z.object({ poll_id: z.string() }));

export const GetPollQuery = guildQuery;
export const ListPollsQuery = /* @__PURE__ */ built(() => z.object({ guild_id: snowflake, ...pagination }));
/** Most voters a page of `/entry/{poll_id}/voters` answers. */
export const VOTERS_PAGE_MAX = 1000;
/** `GET /entry/{poll_id}/voters`: the page fields of behaviour §3.6, up to 1000 voters a page, optionally of one answer. */
export const VotersQuery = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    answer_id: describe(z.optional(queryInt(z.int().check(z.gte(1)))), 'Only the members voting for this answer; left out: every voter'),
    page: pagination.page,
    page_size: z._default(queryInt(z.int().check(z.gte(1), z.lte(VOTERS_PAGE_MAX))), 10),
    cursor: describe(
      z.optional(z.string().check(z.maxLength(1024))),
      'The `next_cursor` of the previous page (same guild_id and answer_id); it names the page, so `page` is then ignored.',
    ),
  }),
);

export const VoteAction = /* @__PURE__ */ z.enum(['add', 'remove']);

/** POST /entry/vote: the poll by ID or by its message, the answer by ID or by emoji. */
export const VoteBody = /* @__PURE__ */ built(() =>
  meta(
    z
      .object({
        guild_id: snowflake,
        poll_id: orNull(textId()),
        answer_id: nullableInt,
        action: VoteAction,
        message_id: nullableSnowflake,
        emoji_id: nullableSnowflake,
        emoji_name: nullableString,
        channel_id: snowflake,
        interacted_message_id: nullableSnowflake,
        ...interactionFields,
      })
      .check(
        z.superRefine((body, ctx) => {
          if (body.poll_id === null && body.interacted_message_id === null && body.message_id === null) {
            if (
              brokenRule(
                ctx,
                "Field 'interacted_message_id' is required when poll_id is null: the poll is found by channel_id and the message members interacted with.",
              )
            )
              return;
          }
          if (body.answer_id === null && body.emoji_name === null && body.emoji_id === null) {
            if (brokenRule(ctx, "Field 'emoji_name' is required when answer_id is null: the answer is found by its emoji.")) return;
          }
          brokenRule(ctx, interactionProblem(body.application_id, body.token));
        }),
      ),
    {
      description:
        'The poll is found by poll_id, or else by channel_id and interacted_message_id (or message_id); the answer by answer_id, or else by its emoji (emoji_name, emoji_id). application_id and token come together.',
    },
  ),
);

export const HandlerVoteBody = /* @__PURE__ */ built(() => z.object({ guild_id: snowflake, poll_id: textId(), action: VoteAction, answer_id: z.int() }));

export const HandlerPollBody = /* @__PURE__ */ built(() => z.object({ guild_id: snowflake, poll_id: textId() }));

export const MessageDeletedBody = /* @__PURE__ */ z.object({ guild_id: snowflake, channel_id: snowflake, interacted_message_id: snowflake });

/** PUT /settings */
export const MAX_SAVE_DURATION = 365 * 24 * 3600;
export const SettingsBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      save_duration_timeout: z.int(),
      delete_ended_platform_polls: z.boolean(),
      delete_ended_service_polls: z.boolean(),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.save_duration_timeout < 0 || body.save_duration_timeout > MAX_SAVE_DURATION) {
          brokenRule(ctx, `Field 'save_duration_timeout' must be from 0 to ${MAX_SAVE_DURATION} seconds (365 days).`);
        }
      }),
    ),
);

/* The answers (behaviour §6: exactly these fields). */

export const PollSettingsRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      guild_id: snowflakeOut,
      save_duration_timeout: meta(z.int(), { description: 'Seconds a closed poll is kept (default 604800)' }),
      delete_ended_platform_polls: z.boolean(),
      delete_ended_service_polls: z.boolean(),
    }),
    { id: 'PollSettings' },
  ),
);

export const PollRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      guild_id: snowflakeOut,
      poll_id: z.string(),
      channel_id: snowflakeOut,
      message_id: z.nullable(snowflakeOut),
      poll_type: meta(z.union([z.literal(1), z.literal(2)]), codedMeta(POLL_TYPE_MEANINGS)),
      poll_answer_type: meta(z.union([z.literal(1), z.literal(2), z.literal(3), z.null()]), {
        ...codedMeta(ANSWER_TYPE_MEANINGS, 'null for native polls.'),
        enum: [1, 2, 3, null],
      }),
      question: z.string(),
      description: z.nullable(z.string()),
      is_multi_select: z.boolean(),
      is_anonymous: z.boolean(),
      max_votes_per_answer: z.int(),
      poll_owner_id: z.nullable(snowflakeOut),
      sent_by_service: z.boolean(),
      status: z.enum(['open', 'closed']),
      end_time: timestamp,
      delete_at: z.nullable(timestamp),
      edited_with_results: z.boolean(),
      created_at: timestamp,
      answers: z.array(
        z.object({
          answer_id: z.int().check(z.gte(1)),
          answer_text: z.string(),
          label: z.nullable(z.string()),
          description: z.nullable(z.string()),
          emoji_name: z.nullable(z.string()),
          emoji_id: z.nullable(snowflakeOut),
          vote_count: z.int().check(z.gte(0)),
          votes: meta(z.nullable(z.array(snowflakeOut)), {
            description: `Voter IDs, one per vote, while the poll has at most ${LISTED_VOTES} votes in all; null above (page them from /entry/{poll_id}/voters); [] on anonymous polls`,
          }),
        }),
      ),
    }),
    { id: 'Poll' },
  ),
);

export const PollAnswer = /* @__PURE__ */ z.object({ poll: PollRecord });
export const MaybePollAnswer = /* @__PURE__ */ built(() =>
  z.object({ poll: meta(z.nullable(PollRecord), { description: 'The deleted poll, or null when the message carried none' }) }),
);
export const PollsPage = /* @__PURE__ */ built(() => z.object({ polls: z.array(PollRecord), ...pageFields }));
export const VotersPage = /* @__PURE__ */ built(() =>
  z.object({
    voters: describe(
      z.array(
        z.object({
          user_id: snowflakeOut,
          answer_ids: describe(z.array(z.int().check(z.gte(1))), "The member's votes: answer IDs, one per vote (only answer_id's when it is given)"),
        }),
      ),
      'Members who voted, in member order',
    ),
    ...pageFields,
    page_size: z.int().check(z.gte(1), z.lte(VOTERS_PAGE_MAX)),
    total: describe(z.int().check(z.gte(0)), 'Members who voted (for answer_id when given)'),
    next_cursor: describe(z.nullable(z.string()), 'Pass as `cursor` for the next page (read by key, the cheap way); null on the last page'),
  }),
);
export const PollSettingsAnswer = /* @__PURE__ */ z.object({ settings: PollSettingsRecord });
export const DeletedSettingsAnswer = /* @__PURE__ */ built(() =>
  z.object({
    settings: z.nullable(PollSettingsRecord),
    polls: describe(z.array(PollRecord), 'The removed polls, newest first: at most 1000, as many as fit in the answer (behaviour §15)'),
    polls_total: describe(z.int().check(z.gte(0)), 'How many polls were removed'),
  }),
);

/** A vote: the member's votes on the poll after it (answer IDs, one per vote). */
export const VoteAnswer = /* @__PURE__ */ built(() =>
  z.object({
    vote: z.object({
      poll_id: z.string(),
      member_id: snowflakeOut,
      action: VoteAction,
      answer_id: z.int().check(z.gte(1)),
      votes: z.array(z.int().check(z.gte(1))),
    }),
  }),
);
