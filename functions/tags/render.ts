/**
 * How a sent tag looks: its content through the shared templates, with the
 * member variables of the member it speaks of and the guild's. The platform
 * is asked for names and counts only when the content uses them. A tag is
 * sent on purpose, so one that breaks a platform limit once filled is
 * refused (422 naming the limit), never cut.
 */
import type { MessageCreate } from '#shared/platform/types.js';
import { guildVariables, renderMessage } from '#shared/templates/index.js';
import { guildNamedIfUsed, variablesFor } from '#shared/templates/members.js';

/**
 * The message body of a tag's content speaking of `memberId` (null: no
 * member, the member variables stay as written). Only that member may be
 * mentioned: no roles, no everyone, no one else.
 */
export async function renderTag(guildId: string, content: string, memberId: string | null): Promise<MessageCreate> {
  // No member to speak of: the member variables stay as written.
  const variables = memberId ? await variablesFor(guildId, memberId, content) : guildVariables(await guildNamedIfUsed(guildId, content));
  return renderMessage(content, false, variables, { parse: [], users: memberId ? [memberId] : [] }, 'refuse', "tag's content");
}
