/** The sandbox feeds: RSS 2.0 and Atom, newest first, with ETag, Last-Modified and 304. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';
import type { Route } from '../router.js';
import { text, fieldsOf } from './http.js';
import type { Feed, SourcesState } from './model.js';

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A feed as RSS 2.0 or Atom text. */
export function feedXml(feed: Feed, selfUrl: string): string {
  if (feed.format === 'rss') {
    const items = feed.entries
      .map(
        (e) =>
          `<item>${e.guid ? `<guid isPermaLink="false">${xml(e.guid)}</guid>` : ''}<title>${xml(e.title)}</title>${e.link ? `<link>${xml(e.link)}</link>` : ''}${
            e.description !== null ? `<description>${xml(e.description)}</description>` : ''
          }<pubDate>${e.published.toUTCString()}</pubDate></item>`,
      )
      .join('');
    return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${xml(feed.title)}</title><link>${xml(selfUrl)}</link><description>Sandbox feed</description>${items}</channel></rss>`;
  }
  const entries = feed.entries
    .map(
      (e) =>
        `<entry><id>${xml(e.guid ?? `${selfUrl}#${e.published.getTime()}`)}</id><title>${xml(e.title)}</title>${e.link ? `<link rel="alternate" href="${xml(e.link)}"/>` : ''}${
          e.description !== null ? `<summary>${xml(e.description)}</summary>` : ''
        }<published>${e.published.toISOString()}</published><updated>${e.published.toISOString()}</updated></entry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${xml(feed.title)}</title><id>${xml(selfUrl)}</id><updated>${feed.lastModified.toISOString()}</updated>${entries}</feed>`;
}

export function feed(state: SourcesState, req: IncomingMessage, res: ServerResponse, name: string, selfUrl: string): void {
  // The bare name (the URL the control route answers), or `{name}.rss` / `{name}.atom`.
  const found = state.feeds.get(name) ?? state.feeds.get(name.replace(/\.(rss|atom)$/, ''));
  if (!found) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such feed');
  const etag = `"${found.name}-${found.version}"`;
  const lastModified = found.lastModified.toUTCString();
  const since = req.headers['if-modified-since'] ? Date.parse(req.headers['if-modified-since']) : NaN;
  if (req.headers['if-none-match'] === etag || (!req.headers['if-none-match'] && Number.isFinite(since) && found.lastModified.getTime() <= since + 999)) {
    state.requests['feed-304'] = (state.requests['feed-304'] ?? 0) + 1;
    return void res.writeHead(304, { ETag: etag, 'Last-Modified': lastModified }).end();
  }
  res
    .writeHead(200, { 'Content-Type': found.format === 'rss' ? 'application/rss+xml' : 'application/atom+xml', ETag: etag, 'Last-Modified': lastModified })
    .end(feedXml(found, selfUrl));
}

const newFeed = (state: SourcesState, body: unknown): Feed => {
  const name = text(body, 'name')!;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw invalidField(['name'], 'BASE_TYPE_BAD_NAME', 'Letters, digits, _ . - only.');
  const format = fieldsOf(body).format === 'atom' ? 'atom' : 'rss';
  const feed: Feed = { name, format, title: text(body, 'title', false) ?? name, entries: [], lastModified: new Date(), version: 1 };
  state.feeds.set(name, feed);
  return feed;
};

/** Control routes: create a feed (answers its URL), add an entry. */
export const feedControlRoutes = (origin: () => string): Route[] => [
  {
    method: 'POST',
    pattern: '/sources/feeds',
    handle: ({ state, body }) => {
      const feed = newFeed(state.sources, body);
      return { status: 200, body: { url: `${origin()}/sources/feeds/${feed.name}` } };
    },
  },
  {
    method: 'POST',
    pattern: '/sources/feeds/:name/entries',
    handle: ({ state, params, body }) => {
      const feed = state.sources.feeds.get(params.name!);
      if (!feed) throw invalidField(['name'], 'UNKNOWN', 'Create the feed first.');
      const published = new Date(Math.max(Date.now(), feed.lastModified.getTime() + 1000));
      const entry = {
        guid: text(body, 'guid', false),
        title: text(body, 'title')!,
        description: text(body, 'description', false),
        link: text(body, 'link', false),
        published,
      };
      feed.entries.unshift(entry);
      feed.lastModified = published;
      feed.version++;
      return { status: 200, body: { ...entry, published: published.toISOString() } };
    },
  },
];
