import { endpoint } from '#shared/http/endpoint.js';
import { editPollDirectly } from './polls.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.handlerEdit, async ({ body }) => ({
  poll: await editPollDirectly(body.guild_id, body.poll_id, {
    question: body.question,
    description: body.description,
    max_votes_per_answer: body.max_votes_per_answer,
    is_multi_select: body.is_multi_select,
    is_anonymous: body.is_anonymous,
  }),
}));
