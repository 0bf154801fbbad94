import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { changeEntry } from './giveaways.js';
import { ActionBody, EntryPath, MessageAnswer } from './schemas.js';

/** The member (X-Acting-User-Id) leaves: one conditional write; the message's entrant count follows within seconds. */
export const handler = endpoint(
  { path: EntryPath, body: ActionBody, actor: 'required', response: MessageAnswer, answerFailures: answerFailures('Your leaving was not recorded.') },
  async ({ path, body, actor }) => {
    const done = await changeEntry(body.guild_id, path.entry_id, actor, 'leave');
    await tellMember(interactionOf(body), 'You left the giveaway.');
    return done;
  },
);
