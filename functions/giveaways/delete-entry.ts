import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { deleteGiveawayByOwner } from './giveaways.js';
import { ActionBody, EntryAnswer, EntryPath } from './schemas.js';

/** Owner only: deletes the message and the giveaway, and cancels its end. */
export const handler = endpoint(
  { path: EntryPath, body: ActionBody, actor: 'optional', response: EntryAnswer, answerFailures: answerFailures('The giveaway was not deleted.') },
  async ({ path, body, caller, actor }) => {
    const done = await deleteGiveawayByOwner(body.guild_id, path.entry_id, { caller, actor });
    await tellMember(interactionOf(body), `The giveaway for ${done.entry.prize} was deleted.`);
    return done;
  },
);
