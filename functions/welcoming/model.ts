/**
 * The welcoming module's records (behaviour §11) and their answer schemas,
 * and the limits of behaviour §12.
 */
import * as z from 'zod/mini';
import { codedInt, describe, meta } from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

/** `response_type`: what a response is for. */
export const ResponseType = { DmWelcome: 1, ChannelWelcome: 2, ChannelLeave: 3 } as const;
export type ResponseTypeValue = (typeof ResponseType)[keyof typeof ResponseType];
export const RESPONSE_TYPES: readonly number[] = /* @__PURE__ */ Object.values(ResponseType);
/** What each `response_type` means, as the document says it. */
export const RESPONSE_TYPE_MEANINGS: Record<ResponseTypeValue, string> = {
  1: 'DM welcome: sent as a direct message to the member who joined',
  2: 'channel welcome: posted in welcome_messages_channel when a member joins',
  3: 'channel leave: posted in leave_messages_channel when a member leaves',
};

export const MAX_RESPONSES_PER_TYPE = 20;
export const MAX_TIMED_ROLES = 20;
/** `add_after` in seconds: 1 second .. 365 days. */
export const ADD_AFTER_MIN = 1;
export const ADD_AFTER_MAX = 31_536_000;

export interface WelcomeResponse {
  id: number;
  guild_id: string;
  response_id: string;
  response_type: ResponseTypeValue;
  is_embed: boolean;
  content: string;
  created_at: string;
}

export interface TimedRole {
  id: number;
  guild_id: string;
  timedrole_id: string;
  role_id: string;
  add_after: number;
  created_at: string;
}

/** A timed role owed to a member: pending until `granted_at` is set. */
export interface Grant {
  member_id: string;
  timedrole_id: string;
  role_id: string;
  due_at: number;
  granted_at?: number;
}

/** The settings fields of behaviour §D3 (the record adds `id` and `guild_id`). */
export interface WelcomingSettings {
  welcome_messages_dm_enabled: boolean;
  welcome_messages_enabled: boolean;
  welcome_messages_randomized: boolean;
  welcome_messages_channel: string | null;
  leave_messages_enabled: boolean;
  leave_messages_randomized: boolean;
  leave_messages_channel: string | null;
  autorole_enabled: boolean;
  autorole_role_ids: string;
  timedroles_enabled: boolean;
  welcome_messages_dm_randomized: boolean;
  welcome_message_dm_response_id: string | null;
  welcome_message_response_id: string | null;
  leave_message_response_id: string | null;
}

/** Which settings pick the response of each type: switched on, randomized, named, and where it goes. */
export const RESPONSE_SETTINGS = {
  [ResponseType.DmWelcome]: {
    enabled: 'welcome_messages_dm_enabled',
    randomized: 'welcome_messages_dm_randomized',
    named: 'welcome_message_dm_response_id',
    channel: null,
  },
  [ResponseType.ChannelWelcome]: {
    enabled: 'welcome_messages_enabled',
    randomized: 'welcome_messages_randomized',
    named: 'welcome_message_response_id',
    channel: 'welcome_messages_channel',
  },
  [ResponseType.ChannelLeave]: {
    enabled: 'leave_messages_enabled',
    randomized: 'leave_messages_randomized',
    named: 'leave_message_response_id',
    channel: 'leave_messages_channel',
  },
} as const satisfies Record<
  ResponseTypeValue,
  { enabled: keyof WelcomingSettings; randomized: keyof WelcomingSettings; named: keyof WelcomingSettings; channel: keyof WelcomingSettings | null }
>;

const id = /* @__PURE__ */ built(() => meta(z.string(), { description: 'Platform snowflake ID' }));

export const SettingsRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    welcome_messages_dm_enabled: z.boolean(),
    welcome_messages_enabled: z.boolean(),
    welcome_messages_randomized: z.boolean(),
    welcome_messages_channel: z.nullable(id),
    leave_messages_enabled: z.boolean(),
    leave_messages_randomized: z.boolean(),
    leave_messages_channel: z.nullable(id),
    autorole_enabled: z.boolean(),
    autorole_role_ids: meta(z.string(), { description: 'Role IDs joined by commas ("" when none)' }),
    timedroles_enabled: z.boolean(),
    welcome_messages_dm_randomized: z.boolean(),
    welcome_message_dm_response_id: z.nullable(z.string()),
    welcome_message_response_id: z.nullable(z.string()),
    leave_message_response_id: z.nullable(z.string()),
  }),
);

export const ResponseRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    response_id: z.string(),
    response_type: codedInt(RESPONSE_TYPE_MEANINGS),
    is_embed: z.boolean(),
    content: z.string(),
    created_at: z.string(),
  }),
);

export const TimedRoleRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    timedrole_id: z.string(),
    role_id: id,
    add_after: meta(z.int(), { description: 'Seconds after joining' }),
    created_at: z.string(),
  }),
);

export const SettingsAnswer = /* @__PURE__ */ z.object({ settings: SettingsRecord });
export const DeleteSettingsAnswer = /* @__PURE__ */ built(() =>
  z.object({
    settings: z.nullable(SettingsRecord),
    responses: describe(z.array(ResponseRecord), 'The removed responses, newest first: as many as fit in the answer (behaviour §15)'),
    responses_total: describe(z.int().check(z.gte(0)), 'How many responses were removed'),
    timedroles: z.array(TimedRoleRecord),
  }),
);
export const ResponseAnswer = /* @__PURE__ */ z.object({ response: ResponseRecord });
export const ResponsesAnswer = /* @__PURE__ */ built(() =>
  z.object({
    responses: z.array(ResponseRecord),
    next_cursor: describe(
      z.nullable(z.string()),
      'Null once every response was answered. The list holds every response unless they would pass the answer size (1 MiB, behaviour §15): it then ends early, and passing this as `cursor` continues right after it.',
    ),
  }),
);
export const TimedRoleAnswer = /* @__PURE__ */ z.object({ timedrole: TimedRoleRecord });
export const TimedRolesAnswer = /* @__PURE__ */ built(() => z.object({ timedroles: z.array(TimedRoleRecord) }));
export const MessageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));
