/**
 * What a template needs from the platform, asked only when the text uses it:
 * a plain "Welcome <user_mention>!" costs no lookup at all.
 */
import { PlatformCode, isPlatformNotFound, platform } from '../platform/client.js';
import { type TemplateGuild, type TemplateMember, memberVariables } from './index.js';

/** Whether the text uses any of the variables `names` (written `<name>`). */
export const usesVariable = (text: string, ...names: string[]) => names.some((name) => text.includes(`<${name}>`));

/**
 * A member's names for the template variables: from their membership
 * (`GET /guilds/{g}/members/{u}`), or from their user (`GET /users/{u}`)
 * when they are not a member, or when `source` is `user` (a member who left).
 */
export async function memberNamed(guildId: string, memberId: string, source: 'member' | 'user' = 'member'): Promise<TemplateMember> {
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

/** The guild's name and member count (`GET /guilds/{g}?with_counts=true`) when the text uses them, else null. */
export async function guildNamedIfUsed(guildId: string, text: string): Promise<TemplateGuild | null> {
  if (!usesVariable(text, 'server_name', 'member_count')) return null;
  const found = await platform.getGuild(guildId);
  return { name: found.name, approximate_member_count: found.approximate_member_count };
}

/** The member and guild variables of a text, asking the platform (at once) only for the names and counts it uses. */
export async function variablesFor(
  guildId: string,
  memberId: string,
  text: string,
  source: 'member' | 'user' = 'member',
): Promise<Record<string, string | number>> {
  const [member, guild] = await Promise.all([
    usesVariable(text, 'user_name') ? memberNamed(guildId, memberId, source) : { id: memberId },
    guildNamedIfUsed(guildId, text),
  ]);
  return memberVariables(member, guild);
}
