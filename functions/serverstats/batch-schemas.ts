/**
 * The body and answer of `POST /stats/batch` (CONTRACT §18): records of any
 * family, each validated by its family's own recording schema, so the batch
 * takes exactly what the single routes take.
 */
import * as z from 'zod/mini';
import { meta, snowflake } from '#shared/http/schemas.js';
import { problemOf } from '#shared/http/validation.js';
import { FAMILIES, type Family } from './families.js';
import { recordingFieldsOnly } from './stats-schemas.js';
import { built } from '#shared/built.js';

export const MAX_BATCH_RECORDS = 500;
/** How old a record's `at` may be. */
export const MAX_AGE_MS = 15 * 60_000;

/** A family's recording in a batch: its family path, and the single route's method (voice joins and leaves are POST and PUT there). */
export interface BatchFamily {
  path: string;
  family: Family;
  method: 'POST' | 'PUT';
}

/** The `family` values a record may name: every recording path, voice as `voice/joined` and `voice/left`. */
export const BATCH_FAMILIES: readonly BatchFamily[] = /* @__PURE__ */ FAMILIES.flatMap((family) =>
  family.shape.kind === 'voice'
    ? [
        { path: `${family.path}/joined`, family, method: 'POST' as const },
        { path: `${family.path}/left`, family, method: 'PUT' as const },
      ]
    : [{ path: family.path, family, method: 'POST' as const }],
);
const byPath = /* @__PURE__ */ built(() => new Map(BATCH_FAMILIES.map((f) => [f.path, f])));
/** Each family's record schema, built when a batch first names the family. */
const schemas = /* @__PURE__ */ new Map<string, z.ZodMiniType>();
const schemaOf = (f: BatchFamily) => schemas.get(f.path) ?? schemas.set(f.path, recordingFieldsOnly(f.family, f.method)).get(f.path)!;

/** ISO 8601 with a date, a time and a zone (`Z` or an offset). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** A record as validated: its family, the event's time (as the table keeps times), and its recording fields. */
export interface BatchRecord {
  family: BatchFamily;
  at: string;
  fields: Record<string, unknown>;
}

type Issue = { path: PropertyKey[]; message: string; input?: unknown };

/** Why `at` is refused, or null: the time now is read once per record, as the single route reads it once per call. */
function atProblem(at: unknown, now: number): string | null {
  if (at === undefined) return 'is required (an ISO 8601 date-time, e.g. 2026-12-06T18:30:00.000Z)';
  if (typeof at !== 'string' || !ISO_TIME.test(at) || Number.isNaN(Date.parse(at)))
    return 'must be an ISO 8601 date-time with a zone, e.g. 2026-12-06T18:30:00.000Z';
  const time = Date.parse(at);
  if (time > now) return `must not be in the future (it is ${new Date(time).toISOString()}, the service's time ${new Date(now).toISOString()})`;
  if (time < now - MAX_AGE_MS)
    return `must be at most 15 minutes old (it is ${new Date(time).toISOString()}, the service's time ${new Date(now).toISOString()})`;
  return null;
}

function recordIssues(value: unknown): { issues: Issue[]; record?: BatchRecord } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { issues: [{ path: [], message: 'must be an object: {family, at, ...the fields of its recording}' }] };
  const { family: path, at, guild_id: _guild, ...rest } = value as Record<string, unknown>;
  const issues: Issue[] = [];
  const family = typeof path === 'string' ? byPath.get(path) : undefined;
  if (!family) {
    const shown =
      path === undefined ? 'is required' : `must be a statistics recording path (${typeof path === 'string' ? `not '${path.slice(0, 80)}'` : 'a string'})`;
    issues.push({ path: ['family'], message: `${shown}: one of ${BATCH_FAMILIES.map((f) => f.path).join(', ')}` });
  }
  const late = atProblem(at, Date.now());
  if (late) issues.push({ path: ['at'], message: late, input: at });
  if (!family) return { issues };
  const parsed = schemaOf(family).safeParse(rest, { error: problemOf, reportInput: true });
  if (!parsed.success)
    issues.push(...parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message, input: (issue as { input?: unknown }).input })));
  if (issues.length) return { issues };
  return { issues, record: { family, at: new Date(Date.parse(at as string)).toISOString(), fields: parsed.data as Record<string, unknown> } };
}

/**
 * A record of a batch: any problem of it (its family's rules, a missing
 * field, its `at`) is a rule of the batch (422), named by its index, as the
 * contract asks; the whole batch is refused, so nothing is stored.
 */
const BatchRecordSchema = /* @__PURE__ */ built(() =>
  meta(
    z.pipe(
      z.unknown(),
      z.transform((value, ctx) => {
        const { issues, record } = recordIssues(value);
        for (const issue of issues) ctx.issues.push({ code: 'custom', path: issue.path, message: issue.message, input: issue.input ?? value });
        return record as BatchRecord;
      }),
    ),
    {
      type: 'object',
      required: ['family', 'at'],
      properties: {
        family: {
          type: 'string',
          enum: BATCH_FAMILIES.map((f) => f.path),
          description: 'The recording path of the statistic (section 8); voice as voice/joined and voice/left.',
        },
        at: { type: 'string', format: 'date-time', description: "The event's time: at most 15 minutes old, not in the future." },
      },
      additionalProperties: true,
      description: "A recording: `family`, `at`, and the fields of that family's recording body without guild_id, validated as that route validates them.",
    },
  ),
);

export const BatchBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    records: z.array(BatchRecordSchema).check(z.minLength(1), z.maxLength(MAX_BATCH_RECORDS)),
  }),
);

export const BatchAnswer = /* @__PURE__ */ built(() =>
  z.object({
    recorded: z.int().check(z.gte(0)),
    skipped: z.int().check(z.gte(0)),
  }),
);
