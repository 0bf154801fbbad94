import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { createTag } from './tags.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.createEntry, ({ body, caller, actor }) =>
  createTag(body.guild_id, body, { caller, actor, interaction: interactionOf(body) }),
);
