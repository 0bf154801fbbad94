import { endpoint } from '../../shared/http/endpoint.js';
import { answeringFailures, interactionOf } from './interaction.js';
import { createPoll } from './polls.js';
import { CreatePollBody } from './schemas.js';

export const handler = answeringFailures(
  endpoint({ body: CreatePollBody }, async ({ body }) => ({ poll: await createPoll(body, interactionOf(body)) })),
  'Your poll could not be created.',
);
