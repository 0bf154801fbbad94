import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf } from '#shared/platform/interaction.js';
import { TagAnswer } from './model.js';
import { CreateTagBody } from './schemas.js';
import { createTag } from './tags.js';

export const handler = endpoint(
  { body: CreateTagBody, answerFailures: answerFailures('The tag was not created.'), response: TagAnswer },
  ({ body, caller, actor }) => createTag(body.guild_id, body, { caller, actor, interaction: interactionOf(body) }),
);
