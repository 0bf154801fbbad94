import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { deleteTag } from './tags.js';
import * as routes from './routes.js';

/** Owner-only; the tag's names are free again. */
export const handler = endpoint(routes.deleteEntry, ({ body, path, caller, actor }) =>
  deleteTag(body.guild_id, path.entry_id, { caller, actor, interaction: interactionOf(body) }),
);
