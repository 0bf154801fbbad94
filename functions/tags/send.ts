/**
 * `POST /entries/{entry_id}/send` (internal): a tag posted in a channel, or
 * as the answer to the member's interaction (seen by everyone in the
 * channel), with the member variables of `user_mention_id` when given, else
 * of the acting member. A private tag may be sent only by its owner.
 */
import { requireOwner } from '#shared/auth/owner.js';
import { platform } from '#shared/platform/client.js';
import type { Interaction } from '#shared/platform/interaction.js';
import { Visibility } from './model.js';
import { renderTag } from './render.js';
import type { Asker } from '#shared/auth/owner.js';
import { enabledTag } from './tags.js';

export interface SendTagInput {
  channel_id: string;
  user_mention_id: string | null;
  interaction: Interaction | null;
}

export async function sendTag(guildId: string, tagId: string, input: SendTagInput, asker: Omit<Asker, 'interaction'>) {
  const stored = await enabledTag(guildId, tagId);
  if (stored.tag.visibility === Visibility.Private) requireOwner(stored.tag.owner_id, `private tag ${tagId}`, asker.caller, asker.actor, 'send');
  const body = await renderTag(guildId, stored.tag.content, input.user_mention_id ?? asker.actor);
  if (input.interaction) {
    await platform.postInteractionMessage(input.interaction.applicationId, input.interaction.token, body);
    return { message: `Sent tag ${tagId} as the answer to the interaction.` };
  }
  const message = await platform.createMessage(input.channel_id, body);
  return { message: `Sent tag ${tagId} to channel ${input.channel_id} (message ${message.id}).` };
}
