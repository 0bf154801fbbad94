import { endpoint } from '#shared/http/endpoint.js';
import { vote, voteRecord } from './voting.js';
import * as routes from './routes.js';

/** Internal: a vote by poll and answer ID, for the member named by X-Acting-User-Id (a vote needs a member). */
export const handler = endpoint(routes.handlerVote, async ({ body, actor }) => {
  const outcome = await vote({
    guildId: body.guild_id,
    memberId: actor,
    action: body.action,
    pollId: body.poll_id,
    channelId: null,
    messageId: null,
    answerId: body.answer_id,
    emojiName: null,
    emojiId: null,
  });
  return { vote: voteRecord(outcome, actor, body.action) };
});
