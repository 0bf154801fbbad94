import { forbidden } from '../errors.js';
import type { Caller } from './caller.js';

/**
 * Owner-only operations (behaviour §4: poll edit/close/delete, giveaway
 * edit/delete/reroll, tag edit/delete): a guild API key may; the service
 * token may when it acts for no member or for the owner; acting for anyone
 * else is 403. `what` names the resource ("poll abc"), `doing` the verb.
 */
export function requireOwner(ownerId: string | null, what: string, caller: Caller | null, actor: string | null, doing: string): void {
  if (caller?.kind === 'guild' || actor === null || actor === ownerId) return;
  throw forbidden(`Only the owner of ${what} may ${doing} it; member ${actor} is not its owner.`);
}
