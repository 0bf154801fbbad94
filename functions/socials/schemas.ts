/**
 * The socials module's request and answer schemas. Identifiers are checked
 * in two steps, as behaviour §3.2 orders: a string (400 otherwise), then its
 * allowed form for the kind (422), canonicalised for comparison.
 */
import * as z from 'zod/mini';
import { channelId, describe, guildQuery, messageIn, pageFields, pagination, reject, snowflake, snowflakeText as id, textId } from '#shared/http/schemas.js';
import { KINDS, type Kind, type KindSpec } from './kinds.js';
import { built } from '#shared/built.js';

/** An identifier of a kind: answers both spellings, as written and as compared. */
export const identifierOf = (spec: KindSpec) =>
  z.pipe(
    z.string(),
    z.transform((value, ctx) => {
      // An empty identifier is none at all (400, as an empty ID is); one of the wrong form breaks the kind's rule (422).
      if (value === '') return reject(ctx, `must be ${spec.rule}, not empty`);
      const ident = spec.normalize(value);
      if (ident === null) {
        return reject(ctx, `must be ${spec.rule}, not '${value.slice(0, 60)}'`, 422);
      }
      return { ident, identifier: value };
    }),
  );

export const SettingsRecord = /* @__PURE__ */ built(() =>
  z.object({
    id: z.int(),
    guild_id: id,
    monitor_forum: z.boolean(),
    monitor_rss: z.boolean(),
    monitor_stream: z.boolean(),
    monitor_video: z.boolean(),
  }),
);
export const SettingsAnswer = /* @__PURE__ */ z.object({ settings: SettingsRecord });
export const SettingsBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    monitor_forum: z.boolean(),
    monitor_rss: z.boolean(),
    monitor_stream: z.boolean(),
    monitor_video: z.boolean(),
  }),
);

export function entryRecordSchema(kind: Kind) {
  const base = {
    id: z.int(),
    guild_id: id,
    target_channel_id: id,
    mention_everyone: z.boolean(),
    created_at: z.string(),
    failures: describe(z.int(), 'How many polls of the source failed in a row (it is tried again after 5 min x 2^(failures-1), at most 24 h)'),
    next_poll_at: z.nullable(z.string()),
  };
  switch (kind) {
    case 'forum':
      return z.object({ ...base, community: z.string() });
    case 'stream':
      return z.object({ ...base, stream_account: z.string() });
    case 'rss':
      return z.object({ ...base, rss_feed: z.string(), latest_entry: z.nullable(z.string()) });
    case 'video':
      return z.object({ ...base, video_channel_handle: z.string(), uploads_playlist_id: z.nullable(z.string()), latest_video_id: z.nullable(z.string()) });
  }
}

export const listQuery = () => z.extend(guildQuery, pagination);
export const listAnswer = (kind: Kind) => z.object({ entries: z.array(entryRecordSchema(kind)), ...pageFields });

export const createBody = (kind: Kind) =>
  z.object({ guild_id: snowflake, [KINDS[kind].field]: identifierOf(KINDS[kind]), target_channel_id: channelId, mention_everyone: z.boolean() });
export const entryAnswer = (kind: Kind) => z.object({ entry: entryRecordSchema(kind) });

export const deleteBody = (kind: Kind) => z.object({ guild_id: snowflake, [KINDS[kind].field]: identifierOf(KINDS[kind]) });
export const deletedAnswer = (kind: Kind) => z.object({ entry: entryRecordSchema(kind), entries: z.array(entryRecordSchema(kind)) });

const sendText = /* @__PURE__ */ built(() => z.string().check(z.minLength(1), z.maxLength(2000)));
/** The send operations' bodies (behaviour §D1.4): all required strings. */
export const sendBody = (kind: Kind) => {
  switch (kind) {
    case 'forum':
      return z.object({ community: identifierOf(KINDS.forum), url: z.string().check(z.url(), z.maxLength(2048)) });
    case 'stream':
      return z.object({ stream_account: identifierOf(KINDS.stream) });
    case 'rss':
      return z.object({ rss_feed_url: identifierOf(KINDS.rss), entry_title: sendText, entry_description: z.string().check(z.maxLength(4000)) });
    case 'video':
      return z.object({
        uploads_playlist_id: textId(z.string().check(z.maxLength(64))),
        video_id: textId(z.string().check(z.regex(/^([A-Za-z0-9_-]{1,32})?$/))),
        video_title: sendText,
      });
  }
};

export const MessageAnswer = /* @__PURE__ */ built(() => z.object({ message: z.string() }));

export const AllEntries = /* @__PURE__ */ built(() =>
  z.object({
    forum: z.array(entryRecordSchema('forum')),
    stream: z.array(entryRecordSchema('stream')),
    rss: z.array(entryRecordSchema('rss')),
    video: z.array(entryRecordSchema('video')),
  }),
);
export const DeletedSettingsAnswer = /* @__PURE__ */ built(() => z.object({ settings: z.nullable(SettingsRecord), entries: AllEntries }));

const actionType = /* @__PURE__ */ z.enum(['add', 'remove']);
export const ForumFilterBody = /* @__PURE__ */ built(() => z.object({ action_type: actionType, community: identifierOf(KINDS.forum) }));
export const StreamFilterBody = /* @__PURE__ */ built(() => z.object({ action_type: actionType, stream_account: identifierOf(KINDS.stream) }));

export const UploadsQuery = /* @__PURE__ */ built(() => z.object({ channel_handle: identifierOf(KINDS.video) }));
export const UploadsAnswer = /* @__PURE__ */ built(() => z.object({ uploads_playlist_id: z.string() }));

export const MemeAnswer = /* @__PURE__ */ built(() => z.object({ title: z.string(), url: z.string(), post_link: z.string() }));
export const MemeSendBody = /* @__PURE__ */ built(() => z.object({ guild_id: snowflake, channel_id: channelId, message_id: messageIn('channel_id') }));
