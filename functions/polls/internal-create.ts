import { endpoint } from '#shared/http/endpoint.js';
import { registerPoll } from './polls.js';
import * as routes from './routes.js';

/** Internal: registers a poll the bot knows of, with its own ID, end_time and delete_at (epoch seconds). */
export const handler = endpoint(routes.handlerCreate, async ({ body }) => ({ poll: await registerPoll(body) }));
