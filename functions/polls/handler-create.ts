import { endpoint } from '../../shared/http/endpoint.js';
import { registerPoll } from './polls.js';
import { HandlerCreateBody, PollAnswer } from './schemas.js';

/** Internal: registers a poll the bot knows of, with its own ID, end_time and delete_at (epoch seconds). */
export const handler = endpoint({ body: HandlerCreateBody, response: PollAnswer }, async ({ body }) => ({ poll: await registerPoll(body) }));
