import * as z from 'zod/mini';
import { parseSnowflake } from '../ids.js';
import { isIntegerTooBig } from './validation.js';
import { owned } from './owned.js';
import { built } from '#shared/built.js';

export { owned } from './owned.js';

/**
 * Schema building blocks every endpoint shares: snowflake IDs, query-string
 * scalars and pagination. Shape problems carry `params: { status: 400 }`.
 */

const SNOWFLAKE_RULE = 'a snowflake ID: 1 to 20 decimal digits within 0..18446744073709551615, as a string or a JSON integer';
const shape = { status: 400 } as const;

/**
 * Fails a transform with `problem` (a predicate of the field: "must be ...")
 * as a shape problem (400) unless `status` says 422. Zod mini's transforms
 * have no `addIssue`, so the issue goes on the payload the way Zod's own do.
 */
export function reject(ctx: z.core.ParsePayload, problem: string, status: 400 | 422 = 400): never {
  ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, ...(status === 400 ? { params: shape } : {}) });
  return z.NEVER;
}

/** In a refinement: adds `problem` as a 422 rule issue (a whole sentence naming its field); answers whether there was one. */
export function brokenRule(ctx: z.core.$RefinementCtx, problem: string | null): boolean {
  if (problem) ctx.addIssue({ code: 'custom', path: [], message: problem });
  return problem !== null;
}

/**
 * Documentation attached to a schema for the OpenAPI document: a copy of the
 * schema carrying `data` in Zod's global registry, as classic Zod's `.meta()`
 * does (the copy keeps its original as parent, so what that one says is kept
 * where this says nothing). Nothing reads it when a function runs.
 */
export function meta<T extends z.ZodMiniType>(schema: T, data: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, data);
  return copy;
}

/**
 * The documentation of a coded value: `enum` lists the allowed values, the
 * description says what each means ("1 DM welcome, 2 channel welcome"), and
 * `x-enumDescriptions` gives one meaning per value to renderers that show
 * them apart. `about` may say more (what a refused value means).
 */
export function codedMeta(meanings: Readonly<Record<number | string, string>>, about?: string): z.core.GlobalMeta {
  const values = Object.keys(meanings).map((key) => (/^[0-9]+$/.test(key) ? Number(key) : key));
  const listed = values.map((value) => `${value}: ${meanings[value]!}`).join('; ');
  return { enum: values, description: `${listed}.${about ? ` ${about}` : ''}`, 'x-enumDescriptions': { ...meanings } };
}

/**
 * An integer with allowed values, each documented with its meaning
 * ({@link codedMeta}). A value of another type is a 400; the route's own
 * rule refuses an integer outside them (422).
 */
export function codedInt(meanings: Readonly<Record<number, string>>, about?: string) {
  const allowed = `must be one of: ${Object.keys(meanings).join(', ')}`;
  // An integer past 2^53 is out of range like any other (422): say which values are allowed; other problems get the usual words.
  return meta(z.int({ error: (issue) => (isIntegerTooBig(issue) ? allowed : undefined) }), codedMeta(meanings, about));
}

/** A copy of the schema whose documentation is `description`. */
export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  return meta(schema, { description });
}

export const SNOWFLAKE_PATTERN = '^[0-9]{1,20}$';

/**
 * Snowflakes are advertised as strings only: a JavaScript client sending the
 * integer form loses digits above 2^53 and may reach another guild's data.
 * The service still accepts exact JSON integers.
 */
const snowflakeJsonSchema = {
  type: 'string',
  pattern: SNOWFLAKE_PATTERN,
  description:
    'Platform snowflake ID (uint64) as a decimal string, always answered as a string. Send strings: a JSON integer is accepted only when exact, and a JavaScript number loses digits above 2^53.',
  examples: ['1234567890123456789'],
};

/** A required platform ID; answers it as a canonical decimal string. */
export const snowflake = /* @__PURE__ */ built(() =>
  meta(
    z.pipe(
      z.unknown(),
      z.transform((value, ctx) => {
        if (value === undefined) {
          return reject(ctx, `is required (${SNOWFLAKE_RULE})`);
        }
        const id = parseSnowflake(value);
        if (id === null) {
          return reject(ctx, `must be ${SNOWFLAKE_RULE}`);
        }
        return id;
      }),
    ),
    snowflakeJsonSchema,
  ),
);

/** A platform ID that may be null or left out (both mean null). */
export const nullableSnowflake = /* @__PURE__ */ built(() =>
  meta(
    z.pipe(
      z.optional(z.unknown()),
      z.transform((value, ctx) => {
        if (value === undefined || value === null) return null;
        const id = parseSnowflake(value);
        if (id === null) {
          return reject(ctx, `must be null or ${SNOWFLAKE_RULE}`);
        }
        return id;
      }),
    ),
    { ...snowflakeJsonSchema, type: ['string', 'null'] },
  ),
);

/*
 * Platform objects of the request's guild (behaviour §13): fields declared
 * with these are checked to be the guild's before the use case runs
 * (shared/http/owned.ts, shared/platform/ownership.ts).
 */

/** A channel of the request's guild. */
export const channelId = /* @__PURE__ */ owned(snowflake, { kind: 'channel' });
/** A role of the request's guild. */
export const roleId = /* @__PURE__ */ owned(snowflake, { kind: 'role' });
/** A role of the request's guild, or null. */
export const nullableRoleId = /* @__PURE__ */ owned(nullableSnowflake, { kind: 'role' });
/** A message in the channel that the field `channelField` of the same object names (a channel of the guild). */
export const messageIn = (channelField: string) => owned(snowflake, { kind: 'message', channelField });
/** The same, or null. */
export const nullableMessageIn = (channelField: string) => owned(nullableSnowflake, { kind: 'message', channelField });

/**
 * An ID that is text: one the service mints (a poll, a key, a verification)
 * or one another module or platform names (a trigger, a video, a component's
 * custom ID). `rules` (a string schema) states its form and length, a 422
 * (behaviour §3.2: lengths and forms are rules); the empty string is no ID
 * at all, a 400 like any ID that is not one (behaviour §3.4).
 */
export function textId(rules: z.ZodMiniType<string, string> = z.string()) {
  return meta(
    z.pipe(
      rules,
      z.transform((value: string, ctx) => (value === '' ? reject(ctx, 'must be an ID, not empty') : value)),
    ),
    { minLength: 1 },
  );
}

/** A field that may be left out or null, both meaning null. */
export const orNull = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.nullish(schema),
    z.transform((v) => v ?? null),
  );

/** A field of an update that, left out or null, keeps its value (behaviour §3.5): undefined. */
export const orKeep = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.nullish(schema),
    z.transform((v) => v ?? undefined),
  );

/** `application_id` and `token` of the interaction to answer, when the request comes from one (behaviour §7). */
export const interactionFields = /* @__PURE__ */ built(() => ({
  application_id: describe(nullableSnowflake, "The bot's application ID; with token, the member is also answered through the interaction webhook"),
  token: describe(orNull(z.string()), "The interaction's token (given to the bot with the member's interaction; valid 15 minutes); with application_id"),
}));

/** An interaction is named by both `application_id` and `token`, or by neither: the 422 sentence, or null. */
export function interactionProblem(applicationId: string | null, token: string | null | undefined): string | null {
  if ((applicationId === null) !== (token == null || token === '')) {
    return "Fields 'application_id' and 'token' go together: send both to answer the member's interaction, or neither.";
  }
  return null;
}

/**
 * What the table holds of a number (behaviour §3.5): DynamoDB keeps no
 * nonzero magnitude below 1e-130 ("Number underflow"), and the table client
 * refuses to write a magnitude past 2^53 - 1 (its reads would not give it
 * back exactly).
 */
export const STORED_NUMBER = { smallest: 1e-130, largest: Number.MAX_SAFE_INTEGER } as const;

/**
 * A number that is stored (a measurement such as a check time): `bounds`
 * (`z.number().check(...)`, its own range a 422) within what the table
 * holds, a larger magnitude a 422 naming the limit. A nonzero magnitude
 * below what the table keeps is that number at the table's precision, 0,
 * so every value the schema takes is stored. Every float of a request
 * that reaches the table goes through here (test/unit/number-extremes).
 */
export function storedNumber(bounds: z.ZodMiniNumber<number>) {
  const { smallest, largest } = STORED_NUMBER;
  return z.pipe(
    bounds,
    z.transform((value, ctx) => {
      if (Math.abs(value) > largest) return reject(ctx, `must be at most ${largest} in magnitude (the largest number stored exactly)`, 422);
      return Math.abs(value) < smallest ? 0 : value;
    }),
  );
}

/** A list of platform IDs. */
export const snowflakeList = /* @__PURE__ */ z.array(snowflake);

/** A query-string integer ("decimal"), then checked by `rules` (422). */
export function queryInt<T extends z.ZodMiniType<number, number>>(rules: T) {
  return meta(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((text, ctx) => {
          if (!/^-?[0-9]+$/.test(text)) {
            return reject(ctx, 'must be a whole number written in decimal');
          }
          // Well-formed however long: past 2^53 it is out of range (422), not malformed.
          const value = Number(text);
          return Number.isFinite(value) ? value : Math.sign(value) * Number.MAX_VALUE;
        }),
      ),
      rules,
    ),
    readLater(() => z.toJSONSchema(rules, { unrepresentable: 'any' }) as Record<string, unknown>),
  );
}

/**
 * Metadata worked out when something first reads it (the OpenAPI document),
 * not when a function loads: a JSON Schema conversion costs milliseconds at
 * every cold start. Zod asks only whether it has an `id` when registering it.
 */
function readLater(compute: () => Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> | undefined;
  // A plain copy: what Zod's own result holds besides its enumerable keys is not documentation.
  const read = () => (value ??= { ...compute() });
  return new Proxy({} as Record<string, unknown>, {
    has: (_, key) => key !== 'id' && key in read(),
    get: (_, key) => read()[key as string],
    ownKeys: () => Reflect.ownKeys(read()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(read(), key),
  });
}

/** A query-string boolean: exactly `true` or `false`. */
export const queryBool = /* @__PURE__ */ built(() =>
  meta(
    z.pipe(
      z.string(),
      z.transform((text, ctx) => {
        if (text !== 'true' && text !== 'false') {
          return reject(ctx, 'must be true or false');
        }
        return text === 'true';
      }),
    ),
    { type: 'boolean' },
  ),
);

/** `page` >= 1 (default 1) and `page_size` 1..100 (default 10); outside: 422. */
export const pagination = /* @__PURE__ */ built(() => ({
  page: z._default(queryInt(z.int().check(z.gte(1))), 1),
  page_size: z._default(queryInt(z.int().check(z.gte(1), z.lte(100))), 10),
  cursor: describe(
    z.optional(z.string().check(z.maxLength(1024))),
    'The `next_cursor` of the previous page (same filters); it names the page, so `page` is then ignored.',
  ),
}));

/**
 * A list read by key (behaviour §11 and §15): `limit` 1..1000 (default
 * 1000) and `cursor`, the `next_cursor` of the previous page. The answer
 * carries `next_cursor` (null on the last page).
 */
export const keyPagination = /* @__PURE__ */ built(() => ({
  limit: z._default(queryInt(z.int().check(z.gte(1), z.lte(1000))), 1000),
  cursor: describe(z.optional(z.string().check(z.maxLength(4096))), 'The `next_cursor` of the previous page.'),
}));

/** The query of a guild-scoped read: `guild_id` (req). */
export const guildQuery = /* @__PURE__ */ z.object({ guild_id: snowflake });

/** The body of a guild-scoped write: `guild_id` (req). */
export const guildBody = /* @__PURE__ */ z.object({ guild_id: snowflake });

/** The query (GET) and body (DELETE) of every module's privacy pair: the guild and the member (behaviour §5). */
export const privacyQuery = /* @__PURE__ */ z.object({ guild_id: snowflake, privacy_member_id: snowflake });

/*
 * Building blocks of success answers (`response`): plain schemas of what the
 * service writes, checked against every answer the tests receive.
 */

/** A platform ID in an answer: always a decimal string. */
export const snowflakeOut = /* @__PURE__ */ built(() =>
  meta(z.string().check(z.regex(new RegExp(SNOWFLAKE_PATTERN))), {
    description: 'Platform snowflake ID (uint64) as a decimal string',
    examples: ['1234567890123456789'],
  }),
);

/** A platform ID in the records of parts 2 and 3 (behaviour §11): a decimal string. */
export const snowflakeText = /* @__PURE__ */ built(() => describe(z.string(), 'Snowflake ID as a decimal string'));

/** A record's `id`: a positive integer, unique within its record type (behaviour §3.4). */
export const recordId = /* @__PURE__ */ built(() => meta(z.int().check(z.gte(1)), { description: 'Positive integer, unique within the record type' }));

/** A timestamp in an answer: ISO 8601 UTC with milliseconds. */
export const timestamp = /* @__PURE__ */ built(() =>
  meta(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)), {
    format: 'date-time',
    description: 'ISO 8601 UTC time',
    examples: ['2026-11-21T12:00:00.000Z'],
  }),
);

/**
 * A channel setting of `PUT /settings` (behaviour §3.5): a snowflake sets it,
 * `""` clears it (null), null or left out keeps it (undefined).
 * `emptyMeans` says what a cleared channel means to the module.
 */
export const channelSetting = (emptyMeans = 'clears it') =>
  owned(
    meta(
      z.pipe(
        z.optional(z.unknown()),
        z.transform((value, ctx): string | null | undefined => {
          if (value === undefined || value === null) return undefined;
          if (value === '') return null;
          const parsed = parseSnowflake(value);
          if (parsed === null) {
            return reject(ctx, `must be a channel ID, "" (${emptyMeans}) or null (unchanged)`);
          }
          return parsed;
        }),
      ),
      {
        anyOf: [{ type: 'string', pattern: '^([0-9]{1,20})?$' }, { type: 'null' }],
        description: `Channel snowflake as a string; "" ${emptyMeans}; null or left out keeps it`,
      },
    ),
    { kind: 'channel' },
  );

/** A true/false setting of `PUT /settings` (behaviour §3.5): null or left out keeps it. */
export const booleanSetting = /* @__PURE__ */ built(() => orKeep(z.boolean()));

/** `data` of an answer that only says what happened. */
export const messageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));

/** The page fields of a paginated list, beside its items (behaviour §3.6). */
export const pageFields = /* @__PURE__ */ built(() => ({
  page: z.int().check(z.gte(1)),
  page_size: z.int().check(z.gte(1), z.lte(100)),
  total: z.int().check(z.gte(0)),
  next_cursor: describe(
    z.nullable(z.string()),
    'Pass as `cursor` for the next page; null on the last. A page holds page_size records unless more would pass the answer size (1 MiB, behaviour §15): it then ends early, and only next_cursor continues right after it.',
  ),
}));

/** What every privacy count answers (behaviour §5): records holding the member's ID and names. */
export const privacyCounts = /* @__PURE__ */ built(() =>
  z.object({
    username: z.int().check(z.gte(0)),
    display_name: z.int().check(z.gte(0)),
    global_name: z.int().check(z.gte(0)),
    nickname: z.int().check(z.gte(0)),
    id: z.int().check(z.gte(0)),
  }),
);

/**
 * A conditional requirement as the OpenAPI document states it (the schema's
 * refinement enforces it, 422): when `field` is `value`, the fields of
 * `then` must be given and not null; otherwise those of `otherwise`.
 */
export function requiredWhen(field: string, value: unknown, then: string[], otherwise: string[] = []): Record<string, unknown> {
  const given = (names: string[]) => ({ required: names, properties: Object.fromEntries(names.map((name) => [name, { not: { type: 'null' } }])) });
  return {
    if: { properties: { [field]: { const: value } }, required: [field] },
    then: given(then),
    ...(otherwise.length ? { else: given(otherwise) } : {}),
  };
}
