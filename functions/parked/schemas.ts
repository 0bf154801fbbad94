import * as z from 'zod/mini';
import { brokenRule, describe, meta, pageFields, pagination, snowflakeOut, timestamp, textId } from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

/** One parked item of scheduled work (behaviour §9.1). */
export const ParkedRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: describe(z.string(), '`<job>:<key>`: what a replay names'),
      job: describe(z.string(), 'The job, e.g. `polls.close`'),
      key: describe(z.string(), 'The work item within its job, e.g. `<guild>#<poll>`'),
      guild_id: meta(z.nullable(snowflakeOut), { description: 'The guild it is for; null for work of no one guild (a feed polled for many)' }),
      attempts: describe(z.int().check(z.gte(1)), 'Deliveries (or dispatches) that did not complete'),
      last_error: z.nullable(z.string()),
      parked_at: timestamp,
      due_at: timestamp,
    }),
    { id: 'ParkedWork' },
  ),
);

export const ParkedQuery = /* @__PURE__ */ built(() => z.object({ ...pagination }));
export const ParkedPageAnswer = /* @__PURE__ */ built(() => z.object({ parked: z.array(ParkedRecord), ...pageFields }));

/** Exactly one of `id` (one item) and `all: true` (every parked item). */
export const ReplayBody = /* @__PURE__ */ built(() =>
  z
    .object({
      id: z.optional(describe(textId(), 'The parked item to replay (its `id` in the list)')),
      all: z.optional(describe(z.boolean(), '`true`: replay every parked item')),
    })
    .check(
      z.superRefine((body, ctx) => {
        const one = body.id !== undefined;
        const every = body.all === true;
        brokenRule(
          ctx,
          one === every
            ? `Give either 'id' (one parked item, as GET /jobs/parked lists it) or 'all': true (every parked item), ${one ? 'not both' : 'one of them'}.`
            : null,
        );
      }),
    ),
);

export const ReplayAnswer = /* @__PURE__ */ built(() => z.object({ replayed: describe(z.array(ParkedRecord), 'What was parked and is now due again') }));
