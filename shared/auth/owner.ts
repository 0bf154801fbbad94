import { forbidden } from '../errors.js';
import type { Interaction } from '../platform/interaction.js';
import type { Caller } from './caller.js';

/** Who asks for an owner-only operation: the caller, the member the bot acts for, and the interaction to answer (null when none). */
export interface Asker {
  caller: Caller | null;
  actor: string | null;
  interaction: Interaction | null;
}

/**
 * Owner-only operations (behaviour §4: poll edit/close/delete, giveaway
 * edit/delete/reroll, tag edit/delete): a guild API key and a dashboard session
 * (a guild key's reach) may; the service
 * token may when it acts for no member or for the owner; acting for anyone
 * else is 403. `what` names the resource ("poll abc"), `doing` the verb.
 */
export function requireOwner(ownerId: string | null, what: string, caller: Caller | null, actor: string | null, doing: string): void {
  if (caller?.kind === 'guild' || caller?.kind === 'session' || actor === null || actor === ownerId) return;
  throw forbidden(`Only the owner of ${what} may ${doing} it; member ${actor} is not its owner.`);
}
