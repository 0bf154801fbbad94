/**
 * The welcoming module's request schemas: shape (400) field by field, then
 * rules (422). Settings follow behaviour §3.5: a field left out or null keeps
 * its value, `""` clears a nullable channel or ID.
 */
import * as z from 'zod/mini';
import { booleanSetting, brokenRule, channelSetting, codedInt, describe, keyPagination, queryInt, roleId, snowflake } from '#shared/http/schemas.js';
import { templateProblem } from '#shared/templates/index.js';
import { ADD_AFTER_MAX, ADD_AFTER_MIN, RESPONSE_TYPES, RESPONSE_TYPE_MEANINGS } from './model.js';
import { built } from '#shared/built.js';

/** A response ID setting: an ID sets it, `""` clears it, null or absent keeps it. */
const responseSetting = /* @__PURE__ */ built(() =>
  describe(
    z.pipe(
      z.nullish(z.string()),
      z.transform((value) => (value === undefined || value === null ? undefined : value === '' ? null : value)),
    ),
    'A response of this module (its `response_id`); "" clears it; null or left out keeps it',
  ),
);

/** Autoroles: a list of role IDs (stored joined by commas, each once); `""` or `[]` clears them. */
const rolesSetting = /* @__PURE__ */ built(() =>
  z.pipe(
    z.nullish(z.union([z.literal(''), z.array(roleId)])),
    z.transform((value) => (value === undefined || value === null ? undefined : value === '' ? '' : [...new Set(value)].join(','))),
  ),
);

export const SettingsBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    welcome_messages_dm_enabled: booleanSetting,
    welcome_messages_enabled: booleanSetting,
    welcome_messages_randomized: booleanSetting,
    welcome_messages_channel: channelSetting(),
    leave_messages_enabled: booleanSetting,
    leave_messages_randomized: booleanSetting,
    leave_messages_channel: channelSetting(),
    autorole_enabled: booleanSetting,
    autorole_role_ids: rolesSetting,
    timedroles_enabled: booleanSetting,
    welcome_messages_dm_randomized: booleanSetting,
    welcome_message_dm_response_id: responseSetting,
    welcome_message_response_id: responseSetting,
    leave_message_response_id: responseSetting,
  }),
);
export type SettingsChanges = Omit<z.output<typeof SettingsBody>, 'guild_id'>;

const responseTypeRule = (type: number) => RESPONSE_TYPES.includes(type);
const RESPONSE_TYPE_RULE = 'must be 1 (DM welcome), 2 (channel welcome) or 3 (channel leave)';
const responseType = /* @__PURE__ */ built(() => codedInt(RESPONSE_TYPE_MEANINGS).check(z.refine(responseTypeRule, RESPONSE_TYPE_RULE)));

export const CreateResponseBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      response_type: responseType,
      is_embed: z.boolean(),
      content: z.string(),
    })
    .check(
      z.superRefine((body, ctx) => {
        brokenRule(ctx, templateProblem(body.content, body.is_embed));
      }),
    ),
);

/** Every response (of a type), and `cursor`: the `next_cursor` of an answer that ended early at its bytes (behaviour §15). */
export const ListResponsesQuery = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    response_type: z.optional(queryInt(responseType)),
    cursor: keyPagination.cursor,
  }),
);

export const ResponsePath = /* @__PURE__ */ built(() => z.object({ response_id: z.string() }));
export const TimedRolePath = /* @__PURE__ */ built(() => z.object({ timedrole_id: z.string() }));
export const GuildQuery = /* @__PURE__ */ z.object({ guild_id: snowflake });
export const GuildBody = /* @__PURE__ */ z.object({ guild_id: snowflake });

export const CreateTimedRoleBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    role_id: roleId,
    add_after: z.int().check(z.gte(ADD_AFTER_MIN), z.lte(ADD_AFTER_MAX)),
  }),
);
