/**
 * Every key the welcoming module writes, spelled once. All of a guild's
 * items live in the guild partition `G#<guild>`, so every decision is a
 * strongly consistent read of the base table:
 *
 * - A response: `WELCOME#RESPONSE#<response_id>`; a timed role:
 *   `WELCOME#TIMEDROLE#<timedrole_id>`. Minted IDs start with the time, so
 *   both sort oldest first and the module snapshot lists them newest first.
 * - The registry `WELCOME#REGISTRY`: one map per response type of the
 *   guild's response IDs, and one map of role ID -> timed role. The limits
 *   (20 of each) and "one timed role per role" are conditions on it, so two
 *   concurrent creates cannot both take the last place.
 * - A timed-role grant per member and timed role:
 *   `WELCOME#GRANT#<member>#<timedrole_id>`, pending until granted, then
 *   kept a day as the proof that it was granted. A member's grants are one
 *   query (leave, privacy); the guild's are one query (catch-up).
 * - Due work in the shared scheduler: a grant at its time, keyed
 *   `<guild>#<member>#<timedrole_id>`, and the guild's hourly catch-up,
 *   keyed `<guild>`.
 */
import { guildKey } from '#shared/modules/store.js';

export const RESPONSE_ENTITY = 'welcoming_response';
export const TIMEDROLE_ENTITY = 'welcoming_timedrole';
export const GRANT_ENTITY = 'welcoming_grant';
export const REGISTRY_ENTITY = 'welcoming_registry';

/** The prefixes the module snapshot of `shared/modules/catalogue.ts` lists. */
export const RESPONSE_PREFIX = 'WELCOME#RESPONSE#';
export const TIMEDROLE_PREFIX = 'WELCOME#TIMEDROLE#';
export const GRANT_PREFIX = 'WELCOME#GRANT#';

export const responseKey = (guildId: string, responseId: string) => ({ pk: guildKey(guildId), sk: `${RESPONSE_PREFIX}${responseId}` });
export const timedRoleKey = (guildId: string, timedRoleId: string) => ({ pk: guildKey(guildId), sk: `${TIMEDROLE_PREFIX}${timedRoleId}` });
export const registryKey = (guildId: string) => ({ pk: guildKey(guildId), sk: 'WELCOME#REGISTRY' });
export const grantKey = (guildId: string, memberId: string, timedRoleId: string) => ({
  pk: guildKey(guildId),
  sk: `${GRANT_PREFIX}${memberId}#${timedRoleId}`,
});
/** The sort-key prefix of one member's grants. */
export const memberGrantsPrefix = (memberId: string) => `${GRANT_PREFIX}${memberId}#`;

/** The registry map of a response type (`responses_1` ...) and of timed roles. */
export const responsesMap = (type: number) => `responses_${type}`;
export const TIMEDROLES_MAP = 'timedroles';

/**
 * A minted ID (contract 3.4: URL-safe, unguessable, unique) that starts with
 * the time in base 36, so sort keys made from it keep creation order.
 */
export { mintOrderedId } from '#shared/ids.js';

/** Whether text could be an ID minted here; anything else names nothing (and could not even be a key). */
export const isMintedId = (text: string) => /^[0-9a-z]{9}[A-Za-z0-9_-]{22}$/.test(text);

/** An ID a client sent, as an error message quotes it (cut when it cannot be one). */
export const quoted = (text: string) => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;

/** The scheduler jobs of the module (see `infra/jobs.ts`). */
export const WelcomingJobs = { grant: 'welcoming.timedrole-grant', catchUp: 'welcoming.timedrole-catchup' } as const;

/** A grant's key in the scheduler. Guild and member IDs are digits, so `#` splits it. */
export const grantDueKey = (guildId: string, memberId: string, timedRoleId: string) => `${guildId}#${memberId}#${timedRoleId}`;

export function parseGrantDueKey(key: string): { guildId: string; memberId: string; timedRoleId: string } | null {
  const [guildId, memberId, ...rest] = key.split('#');
  const timedRoleId = rest.join('#');
  return guildId && memberId && timedRoleId ? { guildId, memberId, timedRoleId } : null;
}
