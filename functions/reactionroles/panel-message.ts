/**
 * A panel's message on the platform: posting it, bringing it in line with
 * the stored panel (text, components, the service's own reactions), and
 * taking the panel off it. Every call here is idempotent, so a step can be
 * repeated or reversed.
 */
import { isPlatformNotFound, platform } from '#shared/platform/client.js';
import type { Message } from '#shared/platform/types.js';
import type { Entry, Panel } from './model.js';
import { renderMessage } from './render.js';
import { entryEmojiKey } from './rules.js';
import { errorField, log } from '#shared/observe/log.js';

/** Panel messages mention roles in their text; posting them must not ping anyone. */
const NO_PINGS = { parse: [] as never[] };

const emojiOf = (entry: Entry) => ({ name: entry.emoji_name, id: entry.emoji_id });

/** Posts a new service-created panel message. */
export function postPanelMessage(
  panel: Pick<Panel, 'channel_id' | 'panel_type' | 'limit_roles_to_one' | 'entries' | 'message_is_embed'> & { message_content: string },
): Promise<Message> {
  return platform.createMessage(panel.channel_id, { ...renderMessage(panel), allowed_mentions: NO_PINGS });
}

/** The message a panel would register, or null when the channel or message does not exist. */
export async function findMessage(channelId: string, messageId: string): Promise<Message | null> {
  try {
    return await platform.getMessage(channelId, messageId);
  } catch (error) {
    if (isPlatformNotFound(error)) return null;
    throw error;
  }
}

/** The service's own reactions a panel shows: one per entry on an emoji panel, none otherwise. */
function ownReactions(panel: Panel): Map<string, Entry> {
  if (panel.panel_type !== 'emoji') return new Map();
  return new Map(panel.entries.map((entry) => [entryEmojiKey(entry), entry]));
}

function serviceMessage(panel: Panel) {
  return panel.is_service_message && panel.message_content !== null ? renderMessage({ ...panel, message_content: panel.message_content }) : null;
}

/**
 * Changes the platform message from what `from` shows to what `to` shows:
 * one edit when the service's message text or components differ, then the
 * service's reactions removed and added by entry emoji. Answers whether it
 * called the platform (false: the two show the same).
 */
export async function syncPanelMessage(from: Panel, to: Panel): Promise<boolean> {
  const before = serviceMessage(from);
  const after = serviceMessage(to);
  const edited = after !== null && JSON.stringify(before) !== JSON.stringify(after);
  if (edited) await platform.editMessage(to.channel_id, to.message_id, { ...after, allowed_mentions: NO_PINGS });
  const had = ownReactions(from);
  const wants = ownReactions(to);
  const dropped = [...had].filter(([key]) => !wants.has(key));
  const added = [...wants].filter(([key]) => !had.has(key));
  for (const [, entry] of dropped) await platform.deleteOwnReaction(to.channel_id, to.message_id, emojiOf(entry));
  for (const [, entry] of added) await platform.addOwnReaction(to.channel_id, to.message_id, emojiOf(entry));
  return edited || dropped.length > 0 || added.length > 0;
}

/**
 * Takes a panel off the platform: deletes the message the service wrote, or
 * removes the service's reactions from a registered one. A message that is
 * already gone counts as done.
 */
export async function removePanelMessage(panel: Panel): Promise<void> {
  try {
    if (panel.is_service_message) {
      await platform.deleteMessage(panel.channel_id, panel.message_id);
      return;
    }
    for (const entry of panel.entries) await platform.deleteOwnReaction(panel.channel_id, panel.message_id, emojiOf(entry));
  } catch (error) {
    if (!isPlatformNotFound(error)) throw error;
  }
}

/** Deletes a message the service just posted, when what it was posted for failed. */
export async function discardMessage(message: Pick<Message, 'channel_id' | 'id'>): Promise<void> {
  try {
    await platform.deleteMessage(message.channel_id, message.id);
  } catch (error) {
    log('error', 'could not delete an orphaned panel message', { channel_id: message.channel_id, message_id: message.id, error: errorField(error) });
  }
}

/** Removes one member's reaction; a failure is logged, not answered (the claim is already settled). */
export async function removeMemberReaction(panel: Panel, emoji: { name: string; id: string | null }, memberId: string): Promise<void> {
  try {
    await platform.deleteUserReaction(panel.channel_id, panel.message_id, emoji, memberId);
  } catch (error) {
    log('warn', "could not remove a member's reaction", { panel_id: panel.panel_id, member_id: memberId, error: errorField(error) });
  }
}
