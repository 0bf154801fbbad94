/**
 * How welcome and leave messages look: a stored response rendered through
 * the shared templates with the member and guild variables of behaviour §12.
 * The platform is asked for names and counts only when the response uses
 * them, so a plain "Welcome <user_mention>!" costs no lookup at all.
 */
import type { MessageCreate } from '#shared/platform/types.js';
import { renderMessage } from '#shared/templates/index.js';
import { variablesFor } from '#shared/templates/members.js';
import type { WelcomeResponse } from './model.js';

/** The message body of a response for this member, pinging at most that member. */
export async function renderResponse(guildId: string, memberId: string, response: WelcomeResponse, source: 'member' | 'user'): Promise<MessageCreate> {
  return renderMessage(response.content, response.is_embed, await variablesFor(guildId, memberId, response.content, source), { users: [memberId] });
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
