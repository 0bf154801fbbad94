import * as z from 'zod/mini';
import { meta } from '#shared/http/schemas.js';
import { PROBLEM_CODES } from './needs.js';
import { built } from '#shared/built.js';

/** One thing that would stop the module from working (behaviour §17, "Diagnostics"). */
const Problem = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      code: meta(z.enum(PROBLEM_CODES), {
        description:
          'channel_missing: no such channel in the guild, or the bot cannot see it; channel_permission: the bot lacks a permission there; role_missing: no such role; ' +
          "role_above_bot: the role is not below the bot's highest; role_managed: an integration's role; missing_manage_roles; intent_missing: a privileged intent is off",
      }),
      field: meta(z.nullable(z.string()), { description: 'The setting or `<list>.<field>` of a record naming the object; null for the module as a whole' }),
      object_id: meta(z.nullable(z.string()), { description: 'The channel or role; null for an intent or Manage Roles' }),
      message: meta(z.string(), { description: 'What is wrong and what to do' }),
    }),
    { description: 'A problem' },
  ),
);

/** `GET /modules/<module>/diagnostics`: the module's problems in the guild, empty when nothing is wrong. */
export const DiagnosticsAnswer = /* @__PURE__ */ built(() => z.object({ problems: z.array(Problem) }));
