/**
 * How welcome and leave messages look: a stored response rendered through
 * the shared templates with the member and guild variables of contract 12.
 * The platform is asked for names and counts only when the response uses
 * them, so a plain "Welcome <user_mention>!" costs no lookup at all.
 */
import { type MessageCreate } from '../../shared/platform/types.js';
import { PlatformCode, isPlatformNotFound, platform } from '../../shared/platform/client.js';
import { type TemplateGuild, type TemplateMember, memberVariables, renderMessage } from '../../shared/templates/index.js';
import type { WelcomeResponse } from './model.js';

const uses = (content: string, ...names: string[]) => names.some((name) => content.includes(`<${name}>`));

/**
 * The member's names: from their membership (`GET /guilds/{g}/members/{u}`:
 * a join) or their user (`GET /users/{u}`: a leave, or a member already
 * gone again).
 */
async function memberNamed(guildId: string, memberId: string, source: 'member' | 'user'): Promise<TemplateMember> {
  if (source === 'member') {
    try {
      const member = await platform.getMember(guildId, memberId);
      return { id: memberId, username: member.user?.username, global_name: member.user?.global_name, nick: member.nick };
    } catch (error) {
      if (!isPlatformNotFound(error, PlatformCode.UnknownMember)) throw error;
    }
  }
  const user = await platform.getUser(memberId);
  return { id: memberId, username: user.username, global_name: user.global_name };
}

/** The message body of a response for this member, pinging at most that member. */
export async function renderResponse(guildId: string, memberId: string, response: WelcomeResponse, source: 'member' | 'user'): Promise<MessageCreate> {
  const member = uses(response.content, 'user_name') ? await memberNamed(guildId, memberId, source) : { id: memberId };
  let guild: TemplateGuild | null = null;
  if (uses(response.content, 'server_name', 'member_count')) {
    const found = await platform.getGuild(guildId);
    guild = { name: found.name, approximate_member_count: found.approximate_member_count };
  }
  return renderMessage(response.content, response.is_embed, memberVariables(member, guild), { users: [memberId] });
}

/**
 * The response to send: a random one when randomized, else the one the
 * settings name (when it still exists), else the oldest.
 */
export function pickResponse(oldestFirst: readonly WelcomeResponse[], randomized: boolean, namedId: string | null): WelcomeResponse | null {
  if (oldestFirst.length === 0) return null;
  if (randomized) return oldestFirst[Math.floor(Math.random() * oldestFirst.length)]!;
  return oldestFirst.find((r) => r.response_id === namedId) ?? oldestFirst[0]!;
}
