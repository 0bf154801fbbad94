/**
 * The request shapes of the reaction-roles endpoints. Types are shape (400);
 * the user document's conditional requirements, allowed values, lengths and
 * the platform's message limits are rules (422), added as issues on the
 * field they concern.
 */
import * as z from 'zod/mini';
import {
  channelId,
  meta,
  nullableMessageIn,
  nullableSnowflake,
  pageFields,
  pagination,
  recordId,
  requiredWhen,
  roleId,
  snowflake,
  snowflakeOut,
  timestamp,
  textId,
} from '#shared/http/schemas.js';
import { PANEL_TYPES } from './model.js';
import { MAX_ENTRY_ROLES, MAX_OPTION_TEXT, contentProblem, emojiProblem } from './rules.js';
import { built } from '#shared/built.js';

type Ctx = z.core.$RefinementCtx;
const rule = (ctx: Ctx, field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });

/** A platform ID documented as "may be None": null, or left out (behaviour §3.5); answers null for both. */

export const PanelPath = /* @__PURE__ */ built(() => z.object({ reactionrole_panel_id: z.string().check(z.minLength(1)) }));
export const EntryPath = /* @__PURE__ */ built(() => z.extend(PanelPath, { reactionrole_entry_id: z.string().check(z.minLength(1)) }));

export const ListPanelsQuery = /* @__PURE__ */ built(() => z.object({ guild_id: snowflake, ...pagination }));

/** The settings every create and edit carries; the two emoji-only ones are required on emoji panels. */
const settings = /* @__PURE__ */ built(() => ({
  guild_id: snowflake,
  panel_type: z.enum(PANEL_TYPES),
  limit_roles_to_one: z.boolean(),
  supports_remove: z.boolean(),
  remove_roles_from_users_on_entry_delete: z.boolean(),
  keep_counter_at_one: z.nullish(z.boolean()),
  delete_unrelated_emoji_reactions: z.nullish(z.boolean()),
}));

/** The document's statement of the emoji-only settings rule. */
const emojiSettingsRequired = /* @__PURE__ */ requiredWhen('panel_type', 'emoji', ['keep_counter_at_one', 'delete_unrelated_emoji_reactions']);

function emojiSettings(value: { panel_type: string; keep_counter_at_one?: boolean | null; delete_unrelated_emoji_reactions?: boolean | null }, ctx: Ctx) {
  if (value.panel_type !== 'emoji') return;
  if (value.keep_counter_at_one == null) rule(ctx, 'keep_counter_at_one', 'is required when panel_type is emoji');
  if (value.delete_unrelated_emoji_reactions == null) rule(ctx, 'delete_unrelated_emoji_reactions', 'is required when panel_type is emoji');
}

export const CreatePanelBody = /* @__PURE__ */ built(() =>
  meta(
    z
      .object({
        ...settings,
        is_register: z.boolean(),
        channel_id: channelId,
        register_message_id: nullableMessageIn('channel_id'),
        is_embed: z.nullish(z.boolean()),
        content: z.nullish(z.string()),
      })
      .check(
        z.superRefine((value, ctx) => {
          emojiSettings(value, ctx);
          if (value.is_register) {
            if (value.register_message_id == null) rule(ctx, 'register_message_id', 'is required when is_register is true');
            if (value.panel_type !== 'emoji')
              rule(ctx, 'panel_type', 'must be "emoji" when is_register is true (a registered message can only carry reactions)');
            return;
          }
          if (value.is_embed == null) rule(ctx, 'is_embed', 'is required when is_register is false');
          if (value.content == null) rule(ctx, 'content', 'is required when is_register is false');
          if (value.is_embed != null && value.content != null) {
            const problem = contentProblem(value.content, value.is_embed);
            if (problem) rule(ctx, 'content', problem);
          }
        }),
      ),
    {
      allOf: [
        emojiSettingsRequired,
        requiredWhen('is_register', true, ['register_message_id'], ['is_embed', 'content']),
        { if: { properties: { is_register: { const: true } }, required: ['is_register'] }, then: { properties: { panel_type: { const: 'emoji' } } } },
      ],
    },
  ),
);

export const EditPanelBody = /* @__PURE__ */ built(() =>
  meta(
    z
      .object({
        ...settings,
        message_content: z.nullish(z.string()),
        message_is_embed: z.boolean(),
      })
      .check(
        z.superRefine((value, ctx) => {
          emojiSettings(value, ctx);
          if (value.message_content != null) {
            const problem = contentProblem(value.message_content, value.message_is_embed);
            if (problem) rule(ctx, 'message_content', problem);
          }
        }),
      ),
    { allOf: [emojiSettingsRequired] },
  ),
);

/** An entry's label and dropdown description: null, or 1 to 100 characters (buttons: 80, checked against the panel). */
const optionText = /* @__PURE__ */ built(() => z.nullish(z.string().check(z.maxLength(MAX_OPTION_TEXT))));

const roleIds = /* @__PURE__ */ built(() => z.array(roleId).check(z.minLength(1), z.maxLength(MAX_ENTRY_ROLES)));

/** The rules every entry body shares: distinct roles, no empty text. */
function entryRules(value: { role_ids: string[]; text?: string | null; description?: string | null }, ctx: Ctx) {
  if (new Set(value.role_ids).size !== value.role_ids.length) rule(ctx, 'role_ids', 'must not name a role twice');
  for (const field of ['text', 'description'] as const) {
    if (value[field] === '') rule(ctx, field, 'must not be empty (send null for none)');
  }
}

export const AddEntryBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      role_ids: roleIds,
      emoji_name: z.string(),
      emoji_id: nullableSnowflake,
      text: optionText,
      description: optionText,
    })
    .check(
      z.superRefine((value, ctx) => {
        entryRules(value, ctx);
        const problem = emojiProblem(value.emoji_name, value.emoji_id);
        if (problem) rule(ctx, 'emoji_name', problem);
      }),
    ),
);

export const EditEntryBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      role_ids: roleIds,
      text: optionText,
      description: optionText,
    })
    .check(z.superRefine(entryRules)),
);

export const INTERACTION_TYPES = ['component', 'reaction_add', 'reaction_delete'] as const;

export const CheckBody = /* @__PURE__ */ built(() =>
  meta(
    z
      .object({
        guild_id: snowflake,
        channel_id: snowflake,
        message_id: snowflake,
        interaction_type: z.enum(INTERACTION_TYPES),
        interaction_custom_id: z.nullish(textId()),
        interaction_id_token: meta(z.nullish(z.string()), {
          description:
            "The interaction's token (the `token` the platform gave the bot with the member's interaction), with application_id: the service answers the member through the interaction webhook with it (ephemeral).",
        }),
        application_id: nullableSnowflake,
        interaction_value: z.nullish(z.string()),
        emoji_name: z.nullish(z.string()),
        emoji_id: nullableSnowflake,
      })
      .check(
        z.superRefine((value, ctx) => {
          if (value.interaction_type === 'component') {
            for (const field of ['interaction_custom_id', 'interaction_id_token', 'application_id'] as const) {
              if (value[field] == null) rule(ctx, field, 'is required when interaction_type is component');
            }
          } else if (value.emoji_name == null) {
            rule(ctx, 'emoji_name', `is required when interaction_type is ${value.interaction_type}`);
          }
        }),
      ),
    {
      allOf: [requiredWhen('interaction_type', 'component', ['interaction_custom_id', 'interaction_id_token', 'application_id'], ['emoji_name'])],
    },
  ),
);

export const CheckDeleteBody = /* @__PURE__ */ z.object({ guild_id: snowflake, channel_id: snowflake, message_id: nullableSnowflake });

/* The answers (behaviour §6: exactly these fields). */

export const PanelRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      guild_id: snowflakeOut,
      panel_id: z.string(),
      panel_type: z.enum(PANEL_TYPES),
      channel_id: snowflakeOut,
      message_id: snowflakeOut,
      is_service_message: meta(z.boolean(), { description: 'The service created the message' }),
      message_content: z.nullable(z.string()),
      message_is_embed: z.boolean(),
      limit_roles_to_one: z.boolean(),
      supports_remove: z.boolean(),
      keep_counter_at_one: z.boolean(),
      delete_unrelated_emoji_reactions: z.boolean(),
      remove_roles_from_users_on_entry_delete: z.boolean(),
      created_at: timestamp,
    }),
    { id: 'ReactionRolePanel' },
  ),
);

export const EntryRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      guild_id: snowflakeOut,
      panel_id: z.string(),
      entry_id: z.string(),
      role_ids: z.array(snowflakeOut),
      emoji_name: z.string(),
      emoji_id: z.nullable(snowflakeOut),
      text: z.nullable(z.string()),
      description: z.nullable(z.string()),
    }),
    { id: 'ReactionRoleEntry' },
  ),
);

export const PanelAnswer = /* @__PURE__ */ z.object({ panel: PanelRecord });
export const PanelsPage = /* @__PURE__ */ built(() => z.object({ panels: z.array(PanelRecord), ...pageFields }));
export const DeletedPanelAnswer = /* @__PURE__ */ built(() => z.object({ panel: PanelRecord, entries: z.array(EntryRecord) }));
export const RemovedAnswer = /* @__PURE__ */ built(() => z.object({ panels: z.array(PanelRecord), entries: z.array(EntryRecord) }));
export const EntryAnswer = /* @__PURE__ */ z.object({ entry: EntryRecord });
export const EntriesAnswer = /* @__PURE__ */ built(() => z.object({ entries: z.array(EntryRecord) }));

/** What a check did for the member: the entries claimed and released, and the role changes. */
export const CheckAnswer = /* @__PURE__ */ built(() =>
  z.object({
    panel_id: z.string(),
    entry_id: z.nullable(z.string()),
    member_id: snowflakeOut,
    changed: z.boolean(),
    claimed: meta(z.array(z.string()), { description: 'Entry IDs claimed' }),
    released: meta(z.array(z.string()), { description: 'Entry IDs released' }),
    roles_added: z.array(snowflakeOut),
    roles_removed: z.array(snowflakeOut),
    entries_held: meta(z.array(z.string()), { description: 'Entry IDs the member holds afterwards' }),
    message: z.string(),
  }),
);
