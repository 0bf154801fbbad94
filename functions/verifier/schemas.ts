/** The verifier's request and answer schemas (records of behaviour §11). */
import * as z from 'zod/mini';
import {
  booleanSetting,
  channelSetting,
  codedInt,
  describe,
  guildQuery,
  interactionFields,
  keyPagination,
  meta,
  nullableSnowflake,
  orKeep,
  orNull,
  roleId,
  snowflake,
  snowflakeText as id,
  textId,
} from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

/** What each `verifier_type` means: the prompt's one button and how the member answers it. */
const VERIFIER_TYPES = {
  1: 'click to pass: a Verify button, one click verifies',
  2: 'passphrase: an Enter passphrase button opens a modal where the member types verifier_passphrase',
  3: "web: a link button to the service's verification page, whose one-time token is the credential",
} as const;
const verifierType = /* @__PURE__ */ codedInt(VERIFIER_TYPES);

const optionalText = (max: number) => orKeep(z.string().check(z.minLength(1), z.maxLength(max)));

export const SettingsRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: z.int(),
      guild_id: id,
      verifier_type: verifierType,
      verifier_verified_role_ids: describe(z.string(), 'Role IDs joined by commas'),
      verifier_message_is_embed: z.boolean(),
      verifier_message_content: z.nullable(z.string()),
      verifier_channel: z.nullable(id),
      verifier_message_content_completed: z.nullable(z.string()),
      verifier_passphrase: z.nullable(z.string()),
      verifier_message_completed_is_embed: z.boolean(),
    }),
    { id: 'VerifierSettings' },
  ),
);
export const SettingsAnswer = /* @__PURE__ */ z.object({ settings: SettingsRecord });

export const SettingsBody = /* @__PURE__ */ built(() =>
  z
    .object({
      guild_id: snowflake,
      verifier_type: orKeep(verifierType),
      verifier_verified_role_ids: z.pipe(
        z.nullish(z.array(roleId).check(z.maxLength(25))),
        z.transform((v) => (v == null ? undefined : [...new Set(v)].join(','))),
      ),
      verifier_message_is_embed: booleanSetting,
      verifier_message_content: optionalText(6000),
      verifier_channel: channelSetting('prompts go as DMs'),
      verifier_message_content_completed: optionalText(6000),
      verifier_passphrase: optionalText(100),
      verifier_message_completed_is_embed: booleanSetting,
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.verifier_type !== undefined && ![1, 2, 3].includes(body.verifier_type)) {
          ctx.addIssue({ code: 'custom', path: ['verifier_type'], message: 'must be 1 (click to pass), 2 (passphrase) or 3 (web)' });
        }
      }),
    ),
);
export type SettingsInput = z.output<typeof SettingsBody>;

export const EntryRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: z.int(),
      guild_id: id,
      verifier_id: z.string(),
      user_id: id,
      requester_id: z.nullable(id),
      is_verified: z.boolean(),
      verify_message_id: z.nullable(id),
      verify_channel_id: z.nullable(id),
      timestamp: z.string(),
      verified_at: z.nullable(z.string()),
      failed_attempts: z.int(),
    }),
    { id: 'Verification' },
  ),
);
/** A page of a guild's verifications, newest first; `next_cursor` (added, behaviour §15) continues it, null on the last page. */
export const EntriesAnswer = /* @__PURE__ */ built(() => z.object({ entries: z.array(EntryRecord), next_cursor: z.nullable(z.string()) }));
export const EntriesQuery = /* @__PURE__ */ z.extend(guildQuery, keyPagination);
export const EntryAnswer = /* @__PURE__ */ z.object({ entry: EntryRecord });
/** The newest 1000 entries and, added (behaviour §15), how many there were: `GET /entries` pages them all. */
export const DeletedSettingsAnswer = /* @__PURE__ */ built(() =>
  z.object({ settings: z.nullable(SettingsRecord), entries: z.array(EntryRecord), entries_total: z.int() }),
);
export const MessageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));
export const CreatedAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string(), verifier_id: z.string() }));

export const EntryPath = /* @__PURE__ */ built(() => z.object({ entry_id: z.string().check(z.minLength(1), z.maxLength(128)) }));
export const CreateBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    requester: describe(snowflake, 'Who asked for the verification: the member themselves on join, or an admin (req)'),
    ...interactionFields,
  }),
);
export const HandleBody = /* @__PURE__ */ built(() =>
  z.object({
    verifier_id: textId(z.string().check(z.maxLength(128))),
    guild_id: nullableSnowflake,
    interaction_id: nullableSnowflake,
    token: orNull(z.string().check(z.maxLength(500))),
    interaction_type: orNull(z.enum(['ComponentInteraction', 'ModalInteraction'])),
    passphrase_value: orNull(z.string().check(z.maxLength(100))),
  }),
);
export const WebPath = /* @__PURE__ */ built(() => z.object({ verifier_id: z.string().check(z.minLength(1), z.maxLength(128)) }));
export const WebQuery = /* @__PURE__ */ built(() => z.object({ token: z.optional(z.string().check(z.maxLength(200))) }));
