/**
 * The tags module's records (behaviour §11), their answer schemas, and the
 * limits of behaviour §12: at most 1000 tags a guild, 1..10 names a tag of
 * 1..32 characters without spaces, content of 1..2000 characters.
 */
import * as z from 'zod/mini';
import { codedInt, messageAnswer, meta, pageFields, recordId, snowflakeOut, timestamp } from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

export const MODULE = 'tags' as const;

export const MAX_TAGS = 1000;
export const MAX_NAMES = 10;
export const MAX_NAME_CHARS = 32;

/** `visibility`: who may send a tag. */
export const Visibility = { Public: 1, Private: 2 } as const;
export type VisibilityValue = (typeof Visibility)[keyof typeof Visibility];
export const VISIBILITIES: readonly number[] = /* @__PURE__ */ Object.values(Visibility);
/** `visibility` as the document says it (a value of the right type outside these: 422). */
export const visibility = /* @__PURE__ */ built(() =>
  codedInt({
    [Visibility.Public]: 'public: anyone in the guild may send it',
    [Visibility.Private]: 'private: only its owner may send it',
  }),
);

export interface Tag {
  id: number;
  guild_id: string;
  tag_id: string;
  content: string;
  owner_id: string;
  created_at: string;
  last_update: string;
  visibility: VisibilityValue;
}

export interface TagName {
  id: number;
  guild_id: string;
  tag_id: string;
  name: string;
  created_at: string;
}

/** A tag with its names, as create, get, edit and delete answer it. */
export interface TagWithNames {
  entry: Tag;
  entry_names: TagName[];
}

export const TagRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      guild_id: snowflakeOut,
      tag_id: z.string(),
      content: z.string(),
      owner_id: snowflakeOut,
      created_at: timestamp,
      last_update: timestamp,
      visibility,
    }),
    { id: 'TagsEntry' },
  ),
);

export const TagNameRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      guild_id: snowflakeOut,
      tag_id: z.string(),
      name: meta(z.string(), { description: '1..32 characters without spaces, unique in the guild (case-insensitively)' }),
      created_at: timestamp,
    }),
    { id: 'TagsEntryName' },
  ),
);

export const TagAnswer = /* @__PURE__ */ built(() => z.object({ entry: TagRecord, entry_names: z.array(TagNameRecord) }));
export const TagsPageAnswer = /* @__PURE__ */ built(() => z.object({ entries: z.array(TagAnswer), ...pageFields }));
export const DeleteSettingsAnswer = /* @__PURE__ */ built(() => z.object({ entries: z.array(TagRecord), entries_names: z.array(TagNameRecord) }));
export const MessageAnswer = messageAnswer;
