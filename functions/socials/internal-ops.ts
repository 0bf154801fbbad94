/**
 * The internal monitor handler operations and the meme (behaviour §7): make
 * sure a source is polled or stops being polled, look up a video channel's
 * uploads playlist, fetch a meme and put one on a message.
 */
import { platformFailed, unprocessable } from '#shared/errors.js';
import { requireEnabled } from '#shared/modules/state.js';
import { isPlatformNotFound, platform } from '#shared/platform/client.js';
import { fitLimits } from '#shared/templates/limits.js';
import { dropUnwatchedSource, schedulePolling } from './entries.js';
import type { Kind } from './kinds.js';
import { type Meme, SourceError, fetchMeme, shownSource, uploadsPlaylistOf } from './reach/sources.js';
import { getSource, watchersOf } from './store.js';

const MEME_TRIES = 3;

/** `add`: the source is polled (it is, while any guild watches it); `remove`: it stops when no guild watches it. A feed is named by its origin only. */
export async function refreshFilter(kind: Kind, action: 'add' | 'remove', ident: string, identifier: string) {
  const watchers = await watchersOf(kind, ident);
  const shown = shownSource(kind, identifier);
  if (action === 'add') {
    if (watchers.length === 0 || !(await getSource(kind, ident))) {
      return { message: `No guild watches ${shown}, so it is not polled; create an entry to watch it.` };
    }
    await schedulePolling(kind, ident);
    return { message: `${shown} is polled for ${watchers.length} channel${watchers.length === 1 ? '' : 's'}.` };
  }
  if (await dropUnwatchedSource(kind, ident)) return { message: `${shown} is no longer polled: no guild watches it.` };
  return { message: `${shown} is still polled: ${watchers.length} channel${watchers.length === 1 ? '' : 's'} watch it.` };
}

export async function uploadsPlaylist(handle: string) {
  try {
    return { uploads_playlist_id: await uploadsPlaylistOf(handle) };
  } catch (error) {
    if (error instanceof SourceError && error.unknown) throw unprocessable(`Field 'channel_handle': ${error.message}.`);
    if (error instanceof SourceError) throw platformFailed(`${error.message}.`);
    throw error;
  }
}

/** A meme that is neither nsfw nor a spoiler: up to 3 asks, then 502. */
async function safeMeme(): Promise<Meme> {
  let last = 'every meme it gave was nsfw or a spoiler';
  for (let i = 0; i < MEME_TRIES; i++) {
    try {
      const meme = await fetchMeme();
      if (!meme.nsfw && !meme.spoiler) return meme;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
  }
  throw platformFailed(`The meme source gave no usable meme in ${MEME_TRIES} tries: ${last}.`);
}

export async function getMeme() {
  const meme = await safeMeme();
  return { title: meme.title, url: meme.url, post_link: meme.postLink };
}

/** Edits an existing message into an embed with a meme's title, link and image. */
export async function sendMeme(guildId: string, channelId: string, messageId: string) {
  await requireEnabled(guildId, 'socials');
  try {
    await platform.getMessage(channelId, messageId);
  } catch (error) {
    if (isPlatformNotFound(error)) throw unprocessable(`Field 'message_id': channel ${channelId} has no message ${messageId} to put a meme on.`);
    throw error;
  }
  const meme = await safeMeme();
  // The source's title, cut to the platform's limits so the meme still shows.
  await platform.editMessage(
    channelId,
    messageId,
    fitLimits({ content: '', embeds: [{ title: meme.title, url: meme.postLink, image: { url: meme.url } }] }, 'cut'),
  );
  return { message: `Message ${messageId} shows the meme '${meme.title.slice(0, 80)}'.` };
}
