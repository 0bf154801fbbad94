/** Native polls: ending one early (platform route) and members voting (sandbox control, dispatched as MESSAGE_POLL_VOTE_ADD/REMOVE). */
import { GatewayDispatchEvents } from 'discord-api-types/v10';
import { cannotEditOthers, cannotExpireNonPoll, invalidField, pollExpired } from '../errors.js';
import { dispatch } from '../events.js';
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
  const { message, poll } = requirePoll(state, params.channel!, params.message!);
  const answerId = Number(params.answer);
  if (!poll.answers.some((a) => a.answer_id === answerId))
    throw invalidField(['answer_id'], 'BASE_TYPE_CHOICES', `Value "${params.answer}" is not a valid answer.`);
  if (isPollFinal(poll)) throw pollExpired();
  const user = params.user!;
  const guildId = state.channels.get(message.channel_id)?.guild_id;
  const voteOf = (answer: number) => ({
    user_id: user,
    channel_id: message.channel_id,
    message_id: message.id,
    answer_id: answer,
    ...(guildId ? { guild_id: guildId } : {}),
  });
  const withdraw = (answer: number) => {
    if (poll.votes.get(answer)?.delete(user)) dispatch(state, { t: GatewayDispatchEvents.MessagePollVoteRemove, d: voteOf(answer) });
  };
  if (!add) return withdraw(answerId);
  if (!poll.allow_multiselect) for (const other of poll.votes.keys()) if (other !== answerId) withdraw(other);
  let voters = poll.votes.get(answerId);
  if (!voters) poll.votes.set(answerId, (voters = new Set()));
  if (voters.has(user)) return;
  voters.add(user);
  dispatch(state, { t: GatewayDispatchEvents.MessagePollVoteAdd, d: voteOf(answerId) });
}

/** The poll routes of the platform API. */
export const pollRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/channels/:channel/polls/:message/expire',
    handle: ({ state, params }) => ({ status: 200, body: messageView(expirePoll(state, params.channel!, params.message!)) }),
  },
];
