import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { editTag } from './tags.js';
import * as routes from './routes.js';

/** Owner-only. Fields given non-null change; `names` replaces every name; `owner_id` hands the tag over. */
export const handler = endpoint(routes.updateEntry, ({ body, path, caller, actor }) =>
  editTag(body.guild_id, path.entry_id, body, { caller, actor, interaction: interactionOf(body) }),
);
