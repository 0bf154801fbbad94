/**
 * The send operations (internal, behaviour §7): the bot hands over one item
 * of a source, which is announced now to every channel watching it, as a
 * poll would, with the same exactly-once marks, so an item that arrives by
 * a send and by a poll is posted once.
 */
import { announce } from './announce.js';
import { feedItemKey } from './feed/parse.js';
import type { Kind } from './kinds.js';
import { streamUrl, videoUrl } from './reach/sources.js';
import { getSource, replaceSource, videoHandleOfPlaylist } from './store.js';

/** A stream announced by a send without a session counts as the session already announced within this window. */
const STREAM_SESSION_MS = 30 * 60 * 1000;

const said = (posted: number, already: number) => `Announced to ${posted} channel${posted === 1 ? '' : 's'}${already ? ` (${already} already had it)` : ''}.`;

async function send(kind: Kind, ident: string, item: { key: string; title: string; description?: string | null; link: string | null }) {
  const result = await announce(kind, ident, { description: null, published: Date.now(), ...item });
  return { message: said(result.posted, result.already) };
}

export function sendForum(community: string, url: string) {
  return send('forum', community, { key: `u:${url}`, title: `New post in r/${community}`, link: url });
}

export function sendRss(feedIdent: string, title: string, description: string) {
  return send('rss', feedIdent, { key: feedItemKey('', '', title, description), title, description: description.slice(0, 500) || null, link: null });
}

export async function sendVideo(uploadsPlaylistId: string, videoId: string, title: string) {
  const handle = await videoHandleOfPlaylist(uploadsPlaylistId);
  if (!handle) return { message: `No guild watches the uploads playlist ${uploadsPlaylistId}; announced to 0 channels.` };
  return send('video', handle, { key: `v:${videoId}`, title, link: videoUrl(videoId) });
}

/**
 * A stream going live. The send names no session: within 30 minutes of the
 * session last announced it is that session; otherwise it starts one.
 */
export async function sendStream(account: string) {
  const source = await getSource('stream', account);
  const now = Date.now();
  let session = `send-${now}`;
  if (source?.live_session && source.live_since !== null && now - source.live_since < STREAM_SESSION_MS) session = source.live_session;
  else if (source) await replaceSource({ ...source, live_session: session, live_since: now });
  return send('stream', account, { key: `s:${session}`, title: `${source?.identifier ?? account} is live`, link: streamUrl(source?.identifier ?? account) });
}
