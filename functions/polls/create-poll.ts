import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf } from '#shared/platform/interaction.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { createPoll } from './polls.js';
import { CreatePollBody, PollAnswer } from './schemas.js';

export const handler = endpoint(
  { body: CreatePollBody, owned: checkOwned, answerFailures: answerFailures('Your poll could not be created.'), response: PollAnswer },
  async ({ body }) => ({ poll: await createPoll(body, interactionOf(body)) }),
);
