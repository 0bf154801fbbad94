/**
 * The sandbox sources of the socials module, in memory: a forum, a stream
 * service, a video service, RSS and Atom feeds and a meme source, answering
 * in the wire formats of behaviour §7, so announcements can be
 * watched and tested with no internet. Each can be told to misbehave.
 */

export interface ForumPost {
  id: string;
  title: string;
  permalink: string;
  url: string;
  created_utc: number;
  over_18: boolean;
}

export interface StreamAccount {
  id: string;
  login: string;
  display_name: string;
  live: { id: string; title: string; started_at: string } | null;
}

export interface VideoChannel {
  id: string;
  handle: string;
  uploads: string;
  videos: { videoId: string; title: string; publishedAt: string }[];
}

export interface FeedEntry {
  guid: string | null;
  title: string;
  description: string | null;
  link: string | null;
  published: Date;
}

export interface Feed {
  name: string;
  format: 'rss' | 'atom';
  title: string;
  /** Newest first. */
  entries: FeedEntry[];
  lastModified: Date;
  version: number;
}

export interface Meme {
  title: string;
  url: string;
  postLink: string;
  nsfw: boolean;
  spoiler: boolean;
}

export type SourceName = 'forum' | 'stream' | 'video' | 'feed' | 'meme';

/** How a source misbehaves for its next `times` requests. */
export interface SourceFault {
  source: SourceName;
  mode: 'status' | 'timeout' | 'garbage' | 'huge' | 'redirect' | 'not-modified';
  status: number;
  times: number;
}

export interface SourcesState {
  forums: Map<string, { name: string; posts: ForumPost[] }>;
  streams: Map<string, StreamAccount>;
  videos: Map<string, VideoChannel>;
  feeds: Map<string, Feed>;
  memes: Meme[];
  faults: SourceFault[];
  /** Requests per source, and `feed-304`: feed answers that were 304. */
  requests: Record<string, number>;
  nextId: number;
}

export function createSourcesState(): SourcesState {
  return { forums: new Map(), streams: new Map(), videos: new Map(), feeds: new Map(), memes: [], faults: [], requests: {}, nextId: 1 };
}

/** A fresh ID of the sources: digits, increasing. */
export const nextId = (state: SourcesState) => String(1_000_000 + state.nextId++);

/** What the sources hold, newest first, as plain JSON for the sandbox state and page. */
export function sourcesView(s: SourcesState) {
  return {
    forums: [...s.forums.values()].map((f) => ({
      name: f.name,
      posts: f.posts.map((p) => ({ title: p.title, url: p.url, time: new Date(p.created_utc * 1000).toISOString() })),
    })),
    streams: [...s.streams.values()].map((a) => ({ login: a.login, live: a.live })),
    videos: [...s.videos.values()].map((c) => ({
      handle: c.handle,
      videos: [...c.videos].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)).map((v) => ({ title: v.title, time: v.publishedAt })),
    })),
    feeds: [...s.feeds.values()].map((f) => ({
      name: f.name,
      format: f.format,
      title: f.title,
      entries: f.entries.map((e) => ({ title: e.title, url: e.link, time: e.published.toISOString() })),
    })),
    memes: s.memes.map((m) => ({ title: m.title, url: m.url })),
    faults: s.faults,
    requests: s.requests,
  };
}
