import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { describeVote, vote, voteRecord } from './voting.js';
import * as routes from './routes.js';

/** Internal: a member (X-Acting-User-Id) voted through a reaction, a button, a dropdown or a native poll. */
export const handler = endpoint(routes.vote, async ({ body, actor }) => {
  const outcome = await vote({
    guildId: body.guild_id,
    memberId: actor,
    action: body.action,
    pollId: body.poll_id,
    channelId: body.channel_id,
    messageId: body.interacted_message_id ?? body.message_id,
    answerId: body.answer_id,
    emojiName: body.emoji_name,
    emojiId: body.emoji_id,
  });
  await tellMember(interactionOf(body), describeVote(outcome, body.action));
  return { vote: voteRecord(outcome, actor, body.action) };
});
