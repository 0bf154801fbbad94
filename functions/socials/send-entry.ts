import { familyEndpoint } from '#shared/http/route-family.js';
import * as routes from './routes.js';
import { sendForum, sendRss, sendStream, sendVideo } from './send.js';

type Named = { ident: string; identifier: string };

/** Internal: the bot hands over one new item of a source; it is announced now to every channel watching it, once. */
export const handler = familyEndpoint(routes.sendEntry, ({ kind }) => ({ body }) => {
  const b = body as Record<string, unknown>;
  switch (kind) {
    case 'forum':
      return sendForum((b.community as Named).ident, b.url as string);
    case 'stream':
      return sendStream((b.stream_account as Named).ident);
    case 'rss':
      return sendRss((b.rss_feed_url as Named).ident, b.entry_title as string, b.entry_description as string);
    case 'video':
      return sendVideo(b.uploads_playlist_id as string, b.video_id as string, b.video_title as string);
  }
});
