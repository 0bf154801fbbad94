import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf } from '#shared/platform/interaction.js';
import { TagAnswer } from './model.js';
import { EditTagBody, TagPath } from './schemas.js';
import { editTag } from './tags.js';

/** Owner-only. Fields given non-null change; `names` replaces every name; `owner_id` hands the tag over. */
export const handler = endpoint(
  { body: EditTagBody, path: TagPath, answerFailures: answerFailures('The tag was not changed.'), response: TagAnswer },
  ({ body, path, caller, actor }) => editTag(body.guild_id, path.entry_id, body, { caller, actor, interaction: interactionOf(body) }),
);
