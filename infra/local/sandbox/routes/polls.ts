/** Native polls: ending one early (platform route) and members voting (sandbox control). */
import { cannotEditOthers, cannotExpireNonPoll, invalidField, pollExpired } from '../errors.js';
import { requireMessage } from '../lookup.js';
import type { Route } from '../router.js';
import { BOT_USER, type SandboxState, type StoredMessage, type StoredPoll } from '../state.js';
import { isPollFinal, messageView } from '../views.js';

function requirePoll(state: SandboxState, channelId: string, messageId: string): { message: StoredMessage; poll: StoredPoll } {
  const message = requireMessage(state, channelId, messageId);
  if (!message.poll) throw cannotExpireNonPoll();
  return { message, poll: message.poll };
}

/** Ends the bot's own poll now: results become final, as `/polls/{m}/expire` does. */
function expirePoll(state: SandboxState, channelId: string, messageId: string): StoredMessage {
  const { message, poll } = requirePoll(state, channelId, messageId);
  if (message.author.id !== BOT_USER.id) throw cannotEditOthers();
  if (isPollFinal(poll)) throw pollExpired();
  poll.ended = true;
  poll.expiry = new Date();
  return message;
}

/**
 * A member votes for (or withdraws from) an answer. Without multiselect a
 * new vote replaces the member's other one, as the platform's poll UI does.
 */
export function vote(state: SandboxState, params: Record<string, string>, add: boolean): void {
  const { poll } = requirePoll(state, params.channel!, params.message!);
  const answerId = Number(params.answer);
  if (!poll.answers.some((a) => a.answer_id === answerId))
    throw invalidField(['answer_id'], 'BASE_TYPE_CHOICES', `Value "${params.answer}" is not a valid answer.`);
  if (isPollFinal(poll)) throw pollExpired();
  const user = params.user!;
  if (!add) return void poll.votes.get(answerId)?.delete(user);
  if (!poll.allow_multiselect) for (const voters of poll.votes.values()) voters.delete(user);
  let voters = poll.votes.get(answerId);
  if (!voters) poll.votes.set(answerId, (voters = new Set()));
  voters.add(user);
}

/** The poll routes of the platform API. */
export const pollRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/channels/:channel/polls/:message/expire',
    handle: ({ state, params }) => ({ status: 200, body: messageView(expirePoll(state, params.channel!, params.message!)) }),
  },
];
