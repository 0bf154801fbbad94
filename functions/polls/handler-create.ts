import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { registerPoll } from './polls.js';
import { HandlerCreateBody, PollAnswer } from './schemas.js';

/** Internal: registers a poll the bot knows of, with its own ID, end_time and delete_at (epoch seconds). */
export const handler = endpoint({ body: HandlerCreateBody, owned: checkOwned, response: PollAnswer }, async ({ body }) => ({ poll: await registerPoll(body) }));
