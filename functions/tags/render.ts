/**
 * How a sent tag looks: its content through the shared templates, with the
 * member variables of the member it speaks of and the guild's. The platform
 * is asked for names and counts only when the content uses them.
 */
import { PlatformCode, isPlatformNotFound, platform } from '../../shared/platform/client.js';
import type { MessageCreate } from '../../shared/platform/types.js';
import { type TemplateGuild, type TemplateMember, memberVariables, renderMessage } from '../../shared/templates/index.js';

const uses = (content: string, ...names: string[]) => names.some((name) => content.includes(`<${name}>`));

/** The member's names from their membership (`GET /guilds/{g}/members/{u}`), or their user when they are not a member. */
async function memberNamed(guildId: string, memberId: string): Promise<TemplateMember> {
  try {
    const member = await platform.getMember(guildId, memberId);
    return { id: memberId, username: member.user?.username, global_name: member.user?.global_name, nick: member.nick };
  } catch (error) {
    if (!isPlatformNotFound(error, PlatformCode.UnknownMember)) throw error;
  }
  const user = await platform.getUser(memberId);
  return { id: memberId, username: user.username, global_name: user.global_name };
}

/**
 * The message body of a tag's content speaking of `memberId` (null: no
 * member, the member variables stay as written). Only that member may be
 * mentioned: no roles, no everyone, no one else.
 */
export async function renderTag(guildId: string, content: string, memberId: string | null): Promise<MessageCreate> {
  let variables: Record<string, string | number> = {};
  if (memberId) {
    const member = uses(content, 'user_name') ? await memberNamed(guildId, memberId) : { id: memberId };
    let guild: TemplateGuild | null = null;
    if (uses(content, 'server_name', 'member_count')) {
      const found = await platform.getGuild(guildId);
      guild = { name: found.name, approximate_member_count: found.approximate_member_count };
    }
    variables = memberVariables(member, guild);
  } else if (uses(content, 'server_name', 'member_count')) {
    const found = await platform.getGuild(guildId);
    variables = { server_name: found.name, ...(typeof found.approximate_member_count === 'number' && { member_count: found.approximate_member_count }) };
  }
  return renderMessage(content, false, variables, { parse: [], users: memberId ? [memberId] : [] });
}
