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
 * - The catch-up's place in the member list while a pass runs over several
 *   runs: `WELCOME#CATCHUP`, the last member ID handled (gone between
 *   passes).
 * - Due work in the shared scheduler: a grant at its time, keyed
 *   `<guild>#<member>#<timedrole_id>`, and the guild's hourly catch-up,
 *   keyed `<guild>`.
 */
import { type Item, entity } from '#shared/db/entity.js';
import { guildKey } from '#shared/modules/store.js';
import type { Grant, ResponseTypeValue, TimedRole, WelcomeResponse } from './model.js';
import { WelcomingJobs } from './jobs.js';

export { WelcomingJobs };

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);

export const ResponseEntity = entity({
  name: 'welcoming_response',
  prefix: 'WELCOME#RESPONSE#',
  pk: inGuild,
  sk: (f: { guildId: string; responseId: string }) => [f.responseId],
  parse: (item): WelcomeResponse => ({
    id: Number(item.id),
    guild_id: String(item.guild_id),
    response_id: String(item.response_id),
    response_type: Number(item.response_type) as ResponseTypeValue,
    is_embed: item.is_embed === true,
    content: String(item.content),
    created_at: String(item.created_at),
  }),
});

export const TimedRoleEntity = entity({
  name: 'welcoming_timedrole',
  prefix: 'WELCOME#TIMEDROLE#',
  pk: inGuild,
  sk: (f: { guildId: string; timedRoleId: string }) => [f.timedRoleId],
  parse: (item): TimedRole => ({
    id: Number(item.id),
    guild_id: String(item.guild_id),
    timedrole_id: String(item.timedrole_id),
    role_id: String(item.role_id),
    add_after: Number(item.add_after),
    created_at: String(item.created_at),
  }),
});

/** The registry: one map per response type, and the timed roles by role. */
export const RegistryEntity = entity({
  name: 'welcoming_registry',
  prefix: 'WELCOME#REGISTRY',
  pk: inGuild,
  parse: (item): Record<string, Item | undefined> => item as Record<string, Item | undefined>,
});

export const GrantEntity = entity({
  name: 'welcoming_grant',
  prefix: 'WELCOME#GRANT#',
  pk: inGuild,
  sk: (f: { guildId: string; memberId: string; timedRoleId: string }) => [f.memberId, f.timedRoleId],
  parse: (item): Grant => {
    const grant: Grant = {
      member_id: String(item.member_id),
      timedrole_id: String(item.timedrole_id),
      role_id: String(item.role_id),
      due_at: Number(item.due_at),
    };
    if (item.granted_at !== undefined) grant.granted_at = Number(item.granted_at);
    return grant;
  },
});

/** Where the running catch-up pass stands: the last member ID its pages reached (behaviour §12). */
export const CatchUpEntity = entity({
  name: 'welcoming_catchup',
  prefix: 'WELCOME#CATCHUP',
  pk: inGuild,
  parse: (item): { after: string } => ({ after: String(item.after_member) }),
});

/** The grant sweep's place item's name, a constant so the sweep's declaration reads no property (grants.ts). */
export const GRANT_SWEEP_ENTITY = 'welcoming_grant_sweep';

/**
 * The removal behind the answer of grants whose timed role is gone (a timed
 * role or the module deleted; behaviour §15): its cutoff and place.
 */
export const GrantSweepEntity = entity({
  name: GRANT_SWEEP_ENTITY,
  prefix: 'WELCOME#SWEEP',
  pk: inGuild,
  parse: (item) => item,
});

/** What the module's reset deletes before its answer: all but the grants (removed behind it) and a sweep under way. */
export const RESET_PREFIXES = [ResponseEntity.prefix, TimedRoleEntity.prefix, RegistryEntity.prefix, CatchUpEntity.prefix];

/** The registry map of a response type (`responses_1` ...) and of timed roles. */
export const responsesMap = (type: number) => `responses_${type}`;
export const TIMEDROLES_MAP = 'timedroles';

/**
 * A minted ID (behaviour §3.4: URL-safe, unguessable, unique) that starts with
 * the time in base 36, so sort keys made from it keep creation order.
 */
export { mintOrderedId } from '#shared/ids.js';

/** Whether text could be an ID minted here; anything else names nothing (and could not even be a key). */
export const isMintedId = (text: string) => /^[0-9a-z]{9}[A-Za-z0-9_-]{22}$/.test(text);

/** An ID a client sent, as an error message quotes it (cut when it cannot be one). */
export const quoted = (text: string) => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;

/** A grant's key in the scheduler. Guild and member IDs are digits, so `#` splits it. */
export const grantDueKey = (guildId: string, memberId: string, timedRoleId: string) => `${guildId}#${memberId}#${timedRoleId}`;

export function parseGrantDueKey(key: string): { guildId: string; memberId: string; timedRoleId: string } | null {
  const [guildId, memberId, ...rest] = key.split('#');
  const timedRoleId = rest.join('#');
  return guildId && memberId && timedRoleId ? { guildId, memberId, timedRoleId } : null;
}
