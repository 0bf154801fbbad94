/**
 * The four monitor kinds of the socials module as data (behaviour §7): the
 * field naming what is watched, its allowed form, how two spellings are
 * compared, and the settings toggle of the kind. Routes, schemas and the
 * tests are built from this table.
 */

export type Kind = 'forum' | 'stream' | 'rss' | 'video';

export interface KindSpec {
  kind: Kind;
  /** The request and record field naming what is watched. */
  field: 'community' | 'stream_account' | 'rss_feed' | 'video_channel_handle';
  /** The settings toggle that turns announcements of this kind on. */
  toggle: 'monitor_forum' | 'monitor_stream' | 'monitor_rss' | 'monitor_video';
  /** The allowed form, as a sentence for a 422. */
  rule: string;
  /** The canonical spelling (what two entries are compared by), or null when the value breaks the rule. */
  normalize(value: string): string | null;
}

// Marked free of effects, so a function that does not read the kinds (the socials privacy pair) leaves the table out.
/* @__NO_SIDE_EFFECTS__ */
const lower = (pattern: RegExp) => (value: string) => (pattern.test(value) ? value.toLowerCase() : null);

export const KINDS: Record<Kind, KindSpec> = {
  forum: {
    kind: 'forum',
    field: 'community',
    toggle: 'monitor_forum',
    rule: '1 to 21 letters, digits or underscores',
    normalize: lower(/^[A-Za-z0-9_]{1,21}$/),
  },
  stream: {
    kind: 'stream',
    field: 'stream_account',
    toggle: 'monitor_stream',
    rule: '3 to 25 letters, digits or underscores',
    normalize: lower(/^[A-Za-z0-9_]{3,25}$/),
  },
  rss: {
    kind: 'rss',
    field: 'rss_feed',
    toggle: 'monitor_rss',
    rule: 'an http or https URL of at most 2048 characters',
    normalize: normalizeFeedUrl,
  },
  video: {
    kind: 'video',
    field: 'video_channel_handle',
    toggle: 'monitor_video',
    rule: "'@' followed by 3 to 30 letters, digits, '.', '_' or '-'",
    normalize: lower(/^@[A-Za-z0-9._-]{3,30}$/),
  },
};

export const KIND_LIST: KindSpec[] = /* @__PURE__ */ Object.values(KINDS);

/** A feed URL as compared: scheme and host lower-cased, the fragment dropped (behaviour §7). */
export function normalizeFeedUrl(value: string): string | null {
  if (value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.toString();
}

/** A link as compared across feeds: no `utm_*` parameters, no fragment. */
export function normalizeLink(value: string): string {
  try {
    const url = new URL(value);
    url.hash = '';
    for (const name of [...url.searchParams.keys()]) if (name.toLowerCase().startsWith('utm_')) url.searchParams.delete(name);
    return url.toString();
  } catch {
    return value.trim();
  }
}
