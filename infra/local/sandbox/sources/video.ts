/** The sandbox video service: channels by handle and their uploads, newest first; needs a key. */
import type { ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';
import type { Route } from '../router.js';
import { json, text } from './http.js';
import { type SourcesState, nextId } from './model.js';

export function video(state: SourcesState, res: ServerResponse, parts: string[], url: URL): void {
  if (!url.searchParams.get('key')) return json(res, 403, { error: { code: 403, message: 'The request is missing a valid API key.' } });
  const endpoint = parts.slice(3).join('/');
  if (endpoint === 'youtube/v3/channels') {
    const handle = (url.searchParams.get('forHandle') ?? '').toLowerCase();
    const channel = state.videos.get(handle.startsWith('@') ? handle : `@${handle}`);
    return json(
      res,
      200,
      channel
        ? { kind: 'youtube#channelListResponse', items: [{ id: channel.id, contentDetails: { relatedPlaylists: { uploads: channel.uploads } } }] }
        : { kind: 'youtube#channelListResponse' },
    );
  }
  if (endpoint === 'youtube/v3/playlistItems') {
    const channel = [...state.videos.values()].find((c) => c.uploads === url.searchParams.get('playlistId'));
    if (!channel) return json(res, 404, { error: { code: 404, message: "The playlist identified with the request's playlistId parameter cannot be found." } });
    const max = Math.min(50, Number(url.searchParams.get('maxResults') ?? 5) || 5);
    return json(res, 200, {
      items: channel.videos
        .slice(0, max)
        .map((v) => ({ snippet: { title: v.title, publishedAt: v.publishedAt, resourceId: { kind: 'youtube#video', videoId: v.videoId } } })),
    });
  }
  json(res, 404, { error: { code: 404, message: 'Not Found' } });
}

/** Control routes: create a channel, upload a video. */
export const videoControlRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/sources/video/:handle',
    handle: ({ state, params }) => {
      const handle = params.handle!.toLowerCase();
      let channel = state.sources.videos.get(handle);
      if (!channel) {
        const id = nextId(state.sources);
        channel = { id: `UC${id}`, handle, uploads: `UU${id}`, videos: [] };
        state.sources.videos.set(handle, channel);
      }
      return { status: 200, body: { channel_id: channel.id, uploads_playlist_id: channel.uploads } };
    },
  },
  {
    method: 'POST',
    pattern: '/sources/video/:handle/videos',
    handle: ({ state, params, body }) => {
      const channel = state.sources.videos.get(params.handle!.toLowerCase());
      if (!channel) throw invalidField(['handle'], 'UNKNOWN', 'Create the channel first.');
      const video = { videoId: `v${nextId(state.sources)}`, title: text(body, 'title')!, publishedAt: new Date().toISOString() };
      channel.videos.unshift(video);
      return { status: 200, body: { video_id: video.videoId } };
    },
  },
];
