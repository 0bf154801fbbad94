import type { Caller } from '../../shared/auth/caller.js';
import { forbidden } from '../../shared/errors.js';
import type { Poll } from './model.js';

/**
 * Owner-only operations (contract 4): a guild API key may; the service
 * token may when it acts for no member or for the poll's owner; acting for
 * anyone else is 403.
 */
export function requireOwner(poll: Poll, caller: Caller | null, actor: string | null, doing: string): void {
  if (caller?.kind === 'guild' || actor === null || actor === poll.poll_owner_id) return;
  throw forbidden(`Only the owner of poll ${poll.poll_id} may ${doing} it; member ${actor} is not its owner.`);
}
