import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { editPollByOwner } from './polls.js';
import * as routes from './routes.js';

/** Owner-only (behaviour §4); service polls that are still open. */
export const handler = endpoint(routes.editPoll, async ({ body, path, caller, actor }) => ({
  poll: await editPollByOwner(
    body.guild_id,
    path.poll_id,
    {
      question: body.question,
      description: body.description,
      max_votes_per_answer: body.max_votes_per_answer,
      is_multi_select: body.is_multi_select,
      is_anonymous: body.is_anonymous,
    },
    { caller, actor, interaction: interactionOf(body) },
  ),
}));
