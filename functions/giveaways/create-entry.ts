import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { createGiveaway } from './giveaways.js';
import { CreateBody, EntryAnswer } from './schemas.js';

/** Posts the giveaway message with Enter and Leave buttons and publishes the seed's hash; it ends by itself at end_time. */
export const handler = endpoint(
  { body: CreateBody, owned: checkOwned, response: EntryAnswer, answerFailures: answerFailures('The giveaway was not created.') },
  async ({ body }) => {
    const created = await createGiveaway(body.guild_id, body);
    await tellMember(interactionOf(body), `The giveaway for ${body.prize} is running.`);
    return created;
  },
);
