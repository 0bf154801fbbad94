import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { createPoll } from './polls.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.createPoll, async ({ body }) => ({ poll: await createPoll(body, interactionOf(body)) }));
