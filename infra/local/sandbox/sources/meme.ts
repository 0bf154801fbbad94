/** The sandbox meme source: queued memes first, else a safe one. */
import type { ServerResponse } from 'node:http';
import type { Route } from '../router.js';
import { fieldsOf, json, text } from './http.js';
import type { SourcesState } from './model.js';

export function meme(state: SourcesState, res: ServerResponse, origin: string): void {
  const next = state.memes.shift() ?? {
    title: 'A sandbox meme',
    url: `${origin}/sources/meme-image.png`,
    postLink: `${origin}/sources/forum-web/r/memes/1`,
    nsfw: false,
    spoiler: false,
  };
  json(res, 200, { ...next, subreddit: 'memes', author: 'sandbox', ups: 1, preview: [next.url] });
}

/** Control route: queue memes. */
export const memeControlRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/sources/memes',
    handle: ({ state, body }) => {
      const b = fieldsOf(body);
      const url = text(body, 'url')!;
      state.sources.memes.push({
        title: text(body, 'title')!,
        url,
        postLink: text(body, 'postLink', false) ?? url,
        nsfw: b.nsfw === true,
        spoiler: b.spoiler === true,
      });
      return { status: 204 };
    },
  },
];
