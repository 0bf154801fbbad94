/** The invite tracker's request and answer schemas (records of behaviour §11). */
import * as z from 'zod/mini';
import {
  booleanSetting,
  channelId,
  channelSetting,
  describe,
  guildQuery,
  keyPagination,
  interactionFields,
  meta,
  orKeep,
  owned,
  snowflake,
  snowflakeText as id,
} from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

const optionalText = (max: number) => orKeep(z.string().check(z.maxLength(max)));

export const SettingsRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: z.int(),
      guild_id: id,
      join_messages_enabled: z.boolean(),
      join_messages_channel: z.nullable(id),
      join_message_is_embed: z.boolean(),
      join_message_content: z.nullable(z.string()),
      leave_messages_enabled: z.boolean(),
      leave_messages_channel: z.nullable(id),
      leave_message_is_embed: z.boolean(),
      leave_message_content: z.nullable(z.string()),
      prevent_own_invite_code: z.boolean(),
      server_shared_invite_link: z.nullable(z.string()),
    }),
    { id: 'InviteTrackerSettings' },
  ),
);
export const SettingsAnswer = /* @__PURE__ */ z.object({ settings: SettingsRecord });
export const SettingsBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    join_messages_enabled: booleanSetting,
    join_messages_channel: channelSetting(),
    join_message_is_embed: booleanSetting,
    join_message_content: optionalText(6000),
    leave_messages_enabled: booleanSetting,
    leave_messages_channel: channelSetting(),
    leave_message_is_embed: booleanSetting,
    leave_message_content: optionalText(6000),
    prevent_own_invite_code: booleanSetting,
    server_shared_invite_link: optionalText(512),
  }),
);
export type SettingsInput = z.output<typeof SettingsBody>;

export const InviteRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: z.int(),
      guild_id: id,
      invite_id: describe(z.string(), 'The invite code'),
      channel_id: z.nullable(id),
      current_uses: z.int(),
      max_uses: z.int(),
      expires_at: z.nullable(z.string()),
      owner_id: z.nullable(id),
    }),
    { id: 'Invite' },
  ),
);

export const UseRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: z.int(),
      guild_id: id,
      invite_id: z.nullable(z.string()),
      member_id: id,
      timestamp: z.string(),
      channel_id: z.nullable(id),
      inviter_id: z.nullable(id),
      has_left: z.boolean(),
      attribution: z.enum(['exact', 'ambiguous', 'vanity', 'unknown']),
      counted: z.boolean(),
    }),
    { id: 'InviteUse' },
  ),
);

export const InvitesAnswer = /* @__PURE__ */ built(() => z.object({ invites: z.array(InviteRecord) }));
/** A page of an inviter's uses, newest first; `next_cursor` (added, behaviour §15) continues it, null on the last page. */
export const UsesAnswer = /* @__PURE__ */ built(() => z.object({ stats_uses: z.array(UseRecord), next_cursor: z.nullable(z.string()) }));
export const CreatedAnswer = /* @__PURE__ */ built(() => z.object({ invite_code: z.string(), invite_url: z.string(), invite: InviteRecord }));
/** The newest 1000 uses and, added (behaviour §15), how many there were: `GET /stats/uses` pages them all. */
export const DeletedSettingsAnswer = /* @__PURE__ */ built(() =>
  z.object({
    settings: z.nullable(SettingsRecord),
    invites: z.array(InviteRecord),
    stats_uses: z.array(UseRecord),
    stats_uses_total: z.int(),
  }),
);
export const MessageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));

export const CreateInviteBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    channel_id: channelId,
    max_uses: z.int().check(z.gte(0), z.lte(100)),
    max_age: z.int().check(z.gte(0), z.lte(604_800)),
    is_temporary: z.boolean(),
    ...interactionFields,
  }),
);
const code = /* @__PURE__ */ built(() => z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/)));
/** An invite of the guild; one the platform does not know is a 404 (behaviour §12). */
export const DeleteInviteBody = /* @__PURE__ */ built(() =>
  z.object({ guild_id: snowflake, invite_code: owned(code, { kind: 'invite', unknownIsNotFound: true }), ...interactionFields }),
);
export const InviteEventBody = /* @__PURE__ */ z.object({ guild_id: snowflake, invite_code: code });
export const InviteCreatedBody = /* @__PURE__ */ z.object({ guild_id: snowflake, invite_code: code, channel_id: snowflake });
export const UsesQuery = /* @__PURE__ */ built(() => z.extend(guildQuery, { inviter_id: snowflake, ...keyPagination }));
