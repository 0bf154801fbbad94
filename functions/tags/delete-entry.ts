import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf } from '#shared/platform/interaction.js';
import { TagAnswer } from './model.js';
import { DeleteTagBody, TagPath } from './schemas.js';
import { deleteTag } from './tags.js';

/** Owner-only; the tag's names are free again. */
export const handler = endpoint(
  { body: DeleteTagBody, path: TagPath, answerFailures: answerFailures('The tag was not deleted.'), response: TagAnswer },
  ({ body, path, caller, actor }) => deleteTag(body.guild_id, path.entry_id, { caller, actor, interaction: interactionOf(body) }),
);
