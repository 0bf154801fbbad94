/**
 * The tags module's request schemas: shape (400) field by field, then the
 * rules (422) in one refinement per body: names (1..10 of 1..32 characters
 * without spaces, no two alike ignoring case), content (1..2000
 * characters), visibility (1 or 2), an interaction's two fields together.
 */
import * as z from 'zod/mini';
import { brokenRule, channelId, interactionFields, interactionProblem, meta, nullableSnowflake, orKeep, pagination, snowflake } from '#shared/http/schemas.js';
import { templateProblem } from '#shared/templates/index.js';
import { MAX_NAMES, MAX_NAME_CHARS, VISIBILITIES, visibility } from './model.js';
import { built } from '#shared/built.js';

const shown = (text: string) => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;

/** What is wrong with one name, or null. */
export function nameProblem(name: string, field: string): string | null {
  if (name.length < 1 || name.length > MAX_NAME_CHARS) {
    return `Field '${field}' must be 1 to ${MAX_NAME_CHARS} characters long; ${shown(name)} has ${name.length}.`;
  }
  if (/\s/.test(name)) return `Field '${field}' must have no spaces; ${shown(name)} has one.`;
  return null;
}

/** What is wrong with a tag's list of names, or null. */
export function namesProblem(names: readonly string[]): string | null {
  if (names.length < 1 || names.length > MAX_NAMES) return `Field 'names' must list 1 to ${MAX_NAMES} names; it lists ${names.length}.`;
  for (const [i, name] of names.entries()) {
    const problem = nameProblem(name, `names[${i}]`);
    if (problem) return problem;
  }
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) return `Field 'names' lists ${shown(name)} twice (names are compared ignoring case); list each name once.`;
    seen.add(key);
  }
  return null;
}

const visibilityProblem = (v: number) =>
  VISIBILITIES.includes(v) ? null : `Field 'visibility' must be 1 (public: anyone may send it) or 2 (private: only its owner); it is ${v}.`;

const names = /* @__PURE__ */ built(() =>
  meta(z.array(z.string()), {
    description: `1..${MAX_NAMES} names of 1..${MAX_NAME_CHARS} characters without spaces, unique in the guild ignoring case`,
  }),
);

export const CreateTagBody = /* @__PURE__ */ built(() =>
  z.object({ guild_id: snowflake, owner_id: snowflake, content: z.string(), visibility, names, ...interactionFields }).check(
    z.superRefine((body, ctx) => {
      brokenRule(ctx, interactionProblem(body.application_id, body.token));
      brokenRule(ctx, namesProblem(body.names));
      brokenRule(ctx, templateProblem(body.content, false));
      brokenRule(ctx, visibilityProblem(body.visibility));
    }),
  ),
);

export const EditTagBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      owner_id: meta(
        z.pipe(
          nullableSnowflake,
          z.transform((v) => v ?? undefined),
        ),
        { description: 'Hands the tag to this member' },
      ),
      content: orKeep(z.string()),
      visibility: orKeep(visibility),
      names: meta(orKeep(names), { description: 'Replaces every name of the tag' }),
      ...interactionFields,
    })
    .check(
      z.superRefine((body, ctx) => {
        brokenRule(ctx, interactionProblem(body.application_id, body.token));
        if (body.names !== undefined) brokenRule(ctx, namesProblem(body.names));
        if (body.content !== undefined) brokenRule(ctx, templateProblem(body.content, false));
        if (body.visibility !== undefined) brokenRule(ctx, visibilityProblem(body.visibility));
      }),
    ),
);

export const DeleteTagBody = /* @__PURE__ */ built(() =>
  z.object({ guild_id: snowflake, ...interactionFields }).check(
    z.superRefine((body, ctx) => {
      brokenRule(ctx, interactionProblem(body.application_id, body.token));
    }),
  ),
);

export const SendTagBody = /* @__PURE__ */ built(() =>
  z.object({ guild_id: snowflake, channel_id: channelId, user_mention_id: nullableSnowflake, ...interactionFields }).check(
    z.superRefine((body, ctx) => {
      brokenRule(ctx, interactionProblem(body.application_id, body.token));
    }),
  ),
);

export const ListTagsQuery = /* @__PURE__ */ built(() =>
  z.object({ guild_id: snowflake, ...pagination, name: meta(z.optional(z.string()), { description: 'Only the tag with this name (ignoring case)' }) }).check(
    z.superRefine((query, ctx) => {
      if (query.name !== undefined) brokenRule(ctx, nameProblem(query.name, 'name'));
    }),
  ),
);

export const TagPath = /* @__PURE__ */ built(() => z.object({ entry_id: z.string() }));
export const GuildQuery = /* @__PURE__ */ z.object({ guild_id: snowflake });
