/**
 * The starboard (behaviour §12): a message with `starboard_count` or more ⭐
 * from distinct members (not its author, not bots) gets one post in the
 * starboard channel, whose count follows the stars. The entry is claimed
 * with a condition before posting, so two checks at once make one post.
 */
import type { APIUser } from 'discord-api-types/v10';
import { mintId } from '#shared/ids.js';
import { nextRecordId } from '#shared/db/record-ids.js';
import { requireEnabled, requireEnabledWithState } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { isPlatformNotFound, platform } from '#shared/platform/client.js';
import type { Message } from '#shared/platform/types.js';
import { fitLimits } from '#shared/templates/limits.js';
import {
  type StarboardEntry,
  claimEntry,
  completeEntry,
  deleteStarboardItems,
  StarboardEntity,
  getEntry,
  listStarboardEntries,
  liveEntry,
  originalOfPost,
  removeEntry,
  setStarCount,
} from './starboard-store.js';

const MODULE = 'serverstats';
const STAR = '⭐';
const REACTIONS_PAGE = 100;
/** A claim whose post was not made within this long was left by a check that died: it may be taken over. */
const CLAIM_STALE_MS = 60_000;
/** Where a jump link points (the platform's web client). */
const JUMP_BASE = 'https://discord.com/channels';

interface Starboard {
  channelId: string;
  threshold: number;
}

/** The starboard of a guild, or null with the reason when it is off. */
async function starboardOf(guildId: string): Promise<Starboard | { off: string }> {
  const settings = (await requireEnabled(guildId, MODULE)).settings ?? {};
  if (settings.starboard_enabled !== true || typeof settings.starboard_channel_id !== 'string') {
    return { off: 'The starboard is off for this guild (set it up with POST /modules/serverstats/starboard).' };
  }
  return { channelId: settings.starboard_channel_id, threshold: Number(settings.starboard_count ?? 3) };
}

/** POST /starboard: sets the channel and turns the starboard on. */
export async function setUpStarboard(guildId: string, channelId: string) {
  await updateSettings(guildId, MODULE, { starboard_channel_id: channelId, starboard_enabled: true });
  return { message: `The starboard is on in channel ${channelId}.` };
}

/** Distinct members who starred the message, not counting its author and bots (every page of reactions). */
async function countStars(message: Message): Promise<number> {
  const members = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = (await platform.getReactions(message.channel_id, message.id, STAR, { limit: REACTIONS_PAGE, ...(after ? { after } : {}) })) as APIUser[];
    for (const user of page) if (!user.bot && user.id !== message.author.id) members.add(user.id);
    if (page.length < REACTIONS_PAGE) return members.size;
    after = page[page.length - 1]!.id;
  }
}

const starLine = (count: number, channelId: string) => `${STAR} **${count}** <#${channelId}>`;

function postBody(guildId: string, message: Message, count: number) {
  const author = message.author as APIUser;
  // The starred message's text, cut to the platform's limits so the post is still made.
  return fitLimits(
    {
      content: starLine(count, message.channel_id),
      embeds: [
        {
          author: { name: author.global_name || author.username },
          description: message.content || '*(no text)*',
          fields: [{ name: 'Source', value: `[Jump to the message](${JUMP_BASE}/${guildId}/${message.channel_id}/${message.id})` }],
          timestamp: message.timestamp,
        },
      ],
      allowed_mentions: { parse: [] },
    },
    'cut',
  );
}

/** The original message, or null when it is gone (nothing to star). */
async function readMessage(channelId: string, messageId: string): Promise<Message | null> {
  try {
    return await platform.getMessage(channelId, messageId);
  } catch (error) {
    if (isPlatformNotFound(error)) return null;
    throw error;
  }
}

async function showCount(guildId: string, board: Starboard, entry: StarboardEntry, count: number): Promise<void> {
  if (count === entry.star_count) return;
  try {
    await platform.editMessage(board.channelId, entry.starboard_message_id, { content: starLine(count, entry.original_channel_id) });
  } catch (error) {
    // The post was deleted behind our back: the entry goes, a new star makes a new post.
    if (!isPlatformNotFound(error)) throw error;
    await removeEntry(guildId, entry.original_message_id);
    return;
  }
  await setStarCount(guildId, entry.original_message_id, count);
}

/** POST /starboard/check/add */
export async function checkStarAdded(guildId: string, channelId: string, messageId: string) {
  const board = await starboardOf(guildId);
  if ('off' in board) return { message: board.off };
  if (channelId === board.channelId) return { message: 'Messages in the starboard channel are never starred.' };
  const message = await readMessage(channelId, messageId);
  if (!message) return { message: `Message ${messageId} no longer exists; nothing to star.` };
  const count = await countStars(message);
  const entry = await getEntry(guildId, messageId);
  if (entry?.starboard_message_id) {
    await showCount(guildId, board, entry, count);
    return { message: `The starboard post shows ${count} stars.` };
  }
  if (count < board.threshold) return { message: `${count} of ${board.threshold} stars: not on the starboard yet.` };

  const claim: StarboardEntry = {
    id: entry?.id ?? (await nextRecordId('serverstats.starboard-entry')),
    guild_id: guildId,
    original_message_id: messageId,
    original_channel_id: channelId,
    starboard_message_id: '',
    star_count: count,
    monitoring_start: new Date().toISOString(),
    _author_id: message.author.id,
    _claim: mintId(),
    _claimed_at: Date.now(),
  };
  if (!(await claimEntry(claim, Date.now() - CLAIM_STALE_MS))) return { message: 'Another check is posting this message to the starboard.' };
  let post: Message;
  try {
    post = await platform.createMessage(board.channelId, postBody(guildId, message, count));
  } catch (error) {
    await removeEntry(guildId, messageId);
    throw error;
  }
  if (!(await completeEntry(claim, post.id))) {
    // This check was slow past CLAIM_STALE_MS and another took the claim over with its own post: this one's post is withdrawn.
    await platform.deleteMessage(board.channelId, post.id).catch((error: unknown) => {
      if (!isPlatformNotFound(error)) throw error;
    });
    return { message: 'Another check posted this message to the starboard meanwhile; this check withdrew its own post.' };
  }
  return { message: `Posted to the starboard with ${count} stars.` };
}

/** POST /starboard/check/remove: the post's count follows; the post stays. */
export async function checkStarRemoved(guildId: string, channelId: string, messageId: string) {
  const board = await starboardOf(guildId);
  if ('off' in board) return { message: board.off };
  const entry = await getEntry(guildId, messageId);
  if (!entry?.starboard_message_id) return { message: `Message ${messageId} is not on the starboard; nothing to change.` };
  const message = await readMessage(channelId, messageId);
  if (!message) return { message: `Message ${messageId} no longer exists; its post is removed by check/deleted-message.` };
  const count = await countStars(message);
  await showCount(guildId, board, entry, count);
  return { message: `The starboard post shows ${count} stars.` };
}

/** POST /starboard/check/delete: the starboard channel gone turns the starboard off and clears its entries. */
export async function checkChannelDeleted(guildId: string, channelId: string) {
  const settings = (await requireEnabled(guildId, MODULE)).settings ?? {};
  if (settings.starboard_channel_id !== channelId) return { message: `Channel ${channelId} is not the starboard channel; nothing to do.` };
  await updateSettings(guildId, MODULE, { starboard_enabled: false, starboard_channel_id: null });
  const entries = await listStarboardEntries(guildId);
  await deleteStarboardItems(entries);
  return {
    message: `The starboard channel was deleted: the starboard is off and ${entries.length} entr${entries.length === 1 ? 'y was' : 'ies were'} cleared.`,
  };
}

/** POST /starboard/check/deleted-message: an original deleted takes its post along; a post deleted drops its entry. */
export async function checkMessageDeleted(guildId: string, messageId: string) {
  const { state, record } = await requireEnabledWithState(guildId, MODULE, StarboardEntity, { guildId, messageId });
  const entry = liveEntry(record, 0);
  const settings = state.settings ?? {};
  if (entry) {
    if (entry.starboard_message_id && typeof settings.starboard_channel_id === 'string') {
      try {
        await platform.deleteMessage(settings.starboard_channel_id, entry.starboard_message_id);
      } catch (error) {
        if (!isPlatformNotFound(error)) throw error;
      }
    }
    await removeEntry(guildId, messageId);
    return { message: `Message ${messageId} was starred: its starboard post and entry are removed.` };
  }
  const original = await originalOfPost(guildId, messageId);
  if (original) {
    await removeEntry(guildId, original);
    return { message: `Message ${messageId} was the starboard post of ${original}: its entry is dropped.` };
  }
  return { message: `Message ${messageId} is neither starred nor a starboard post; nothing to do.` };
}
