import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { changeEntry } from './giveaways.js';
import { ActionBody, EntryPath, MessageAnswer } from './schemas.js';

/** The member (X-Acting-User-Id) enters: one conditional write; the message's entrant count follows within seconds. */
export const handler = endpoint(
  { path: EntryPath, body: ActionBody, actor: 'required', response: MessageAnswer, answerFailures: answerFailures('Your entry was not recorded.') },
  async ({ path, body, actor }) => {
    const done = await changeEntry(body.guild_id, path.entry_id, actor, 'enter');
    await tellMember(interactionOf(body), 'You entered the giveaway. Good luck!');
    return done;
  },
);
