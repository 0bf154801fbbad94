/** The sandbox forum: communities and their posts, newest first (behaviour §7). */
import type { ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';
import type { Route } from '../router.js';
import { json, text } from './http.js';
import { type SourcesState, nextId } from './model.js';

export function forum(state: SourcesState, res: ServerResponse, parts: string[], origin: string): void {
  // /sources/forum/r/{community}/new.json
  const community = decodeURIComponent(parts[4] ?? '').toLowerCase();
  const found = parts[3] === 'r' && parts[5] === 'new.json' ? state.forums.get(community) : undefined;
  if (!found) return json(res, 404, { message: 'Not Found', error: 404 });
  json(res, 200, {
    kind: 'Listing',
    data: {
      children: found.posts.slice(0, 25).map((post) => ({ kind: 't3', data: { ...post, url: post.url || `${origin}/sources/forum-web${post.permalink}` } })),
    },
  });
}

/** Control routes: create a community, add a post. */
export const forumControlRoutes = (origin: () => string): Route[] => [
  {
    method: 'POST',
    pattern: '/sources/forum/:community',
    handle: ({ state, params }) => {
      const key = params.community!.toLowerCase();
      if (!state.sources.forums.has(key)) state.sources.forums.set(key, { name: params.community!, posts: [] });
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: '/sources/forum/:community/posts',
    handle: ({ state, params, body }) => {
      const forum = state.sources.forums.get(params.community!.toLowerCase());
      if (!forum) throw invalidField(['community'], 'UNKNOWN', 'Create the community first.');
      const id = text(body, 'id', false) ?? nextId(state.sources).slice(-6);
      const permalink = `/r/${forum.name}/comments/${id}/post/`;
      const post = {
        id,
        title: text(body, 'title')!,
        permalink,
        url: text(body, 'url', false) ?? `${origin()}/sources/forum-web${permalink}`,
        created_utc: Date.now() / 1000,
        over_18: false,
      };
      forum.posts.unshift(post);
      return { status: 200, body: post };
    },
  },
];
