/**
 * Timed roles granted once, on time, even after downtime (behaviour §9 and
 * §12). A grant owed to a member is an item (`store.ts`) plus due work on the
 * durable scheduler at join time + `add_after`. The scheduler's claim keeps
 * two consumers of one message apart; the grant item keeps a redelivered
 * message, or a catch-up that read the member list earlier, from granting
 * again: a grant is only made while its item is pending, and marked done
 * right after.
 *
 * The catch-up (`/check/role/timed`, and hourly per guild) pages the guild's
 * members once for all timed roles and gives every member who lacks a role
 * and has no grant for it one, due at their `joined_at` + `add_after`: members
 * who joined while the service was down, or before the role existed.
 */
import { PlatformCode, isPlatformNotFound, platform } from '#shared/platform/client.js';
import { readModuleState } from '#shared/modules/store.js';
import { type WorkRef, cancelAll, dueKeysOf, requestLater, scheduler } from '#shared/scheduler/index.js';
import { WelcomingJobs, grantDueKey } from './keys.js';
import type { Grant, TimedRole, WelcomingSettings } from './model.js';
import { deleteGrant, deleteGrants, grantContext, guildGrants, listTimedRoles, markGranted, memberGrants, putGrant } from './store.js';
import { errorField, log } from '#shared/observe/log.js';

export const HOUR_MS = 3_600_000;
/** The platform's largest member page. */
const MEMBER_PAGE = 1000;
/** A pending grant this far past due was lost by the scheduler (a crash between two writes): schedule it again. */
const STUCK_AFTER_MS = 10 * 60_000;
/** Writes issued at once while catching up. */
const PARALLEL = 25;

const dueKeyOf = (guildId: string, grant: Pick<Grant, 'member_id' | 'timedrole_id'>) => grantDueKey(guildId, grant.member_id, grant.timedrole_id);

function grantFor(memberId: string, timedRole: TimedRole, joinedAt: number): Grant {
  return { member_id: memberId, timedrole_id: timedRole.timedrole_id, role_id: timedRole.role_id, due_at: joinedAt + timedRole.add_after * 1000 };
}

/** Records a grant, then puts it on the scheduler. Answers whether it was new. */
async function owe(guildId: string, grant: Grant, mode: 'join' | 'catchUp'): Promise<boolean> {
  if (!(await putGrant(guildId, grant, mode))) return false;
  await scheduler.scheduleAt(WelcomingJobs.grant, dueKeyOf(guildId, grant), grant.due_at);
  return true;
}

/** A member joined: every timed role of the guild is owed to them at `joinedAt` + its `add_after`. Answers how many were scheduled. */
export async function scheduleJoinGrants(guildId: string, memberId: string, joinedAt: number): Promise<number> {
  const timedRoles = await listTimedRoles(guildId);
  const made = await Promise.all(timedRoles.map((timedRole) => owe(guildId, grantFor(memberId, timedRole, joinedAt), 'join')));
  return made.filter(Boolean).length;
}

export type GrantOutcome = 'granted' | 'nothing owed' | 'cancelled' | 'member gone';

/**
 * The scheduler's handler for one due grant. Grants the role only while the
 * grant is pending, its timed role exists and the module and its timed
 * roles are on; a member who left (platform 10007) is skipped. Any other
 * platform failure throws, so the scheduler tries again.
 */
export async function grantDue(guildId: string, memberId: string, timedRoleId: string): Promise<GrantOutcome> {
  const { grant, timedRole, state } = await grantContext(guildId, memberId, timedRoleId);
  if (!grant || grant.granted_at !== undefined) return 'nothing owed';
  const settings = state?.settings as WelcomingSettings | undefined;
  if (!timedRole || !state?.enabled || !settings?.timedroles_enabled) {
    // A catch-up after the module or its timed roles are on again owes it anew.
    await deleteGrant(guildId, memberId, timedRoleId);
    return 'cancelled';
  }
  try {
    await platform.addMemberRole(guildId, memberId, timedRole.role_id);
  } catch (error) {
    if (!isPlatformNotFound(error, PlatformCode.UnknownMember)) throw error;
    await deleteGrant(guildId, memberId, timedRoleId);
    return 'member gone';
  }
  await markGranted(guildId, memberId, timedRoleId);
  return 'granted';
}

/** The due work of the grants still pending. */
const pendingWork = (guildId: string, grants: readonly Grant[]): WorkRef[] =>
  grants.filter((g) => g.granted_at === undefined).map((g) => ({ job: WelcomingJobs.grant, key: dueKeyOf(guildId, g) }));

/**
 * Forgets grants and their due work in one batch delete: a due grant that
 * runs meanwhile finds its due item gone (nothing to claim) or its grant
 * item gone (nothing owed), so either order is safe.
 */
async function forget(guildId: string, grants: readonly Grant[]): Promise<void> {
  await deleteGrants(guildId, grants, dueKeysOf(pendingWork(guildId, grants)));
}

/** A member left (or asked to be forgotten): their grants go, pending and made. Answers them. */
export async function cancelMemberGrants(guildId: string, memberId: string): Promise<Grant[]> {
  const grants = await memberGrants(guildId, memberId);
  await forget(guildId, grants);
  return grants;
}

/** A timed role was deleted: nobody gets it any more. */
export async function cancelTimedRoleGrants(guildId: string, timedRoleId: string): Promise<void> {
  await forget(
    guildId,
    (await guildGrants(guildId)).filter((g) => g.timedrole_id === timedRoleId),
  );
}

/** The module's items of the guild are deleted (the grants' with them): the grants' due work and the hourly catch-up go too. */
export async function cancelGuildWork(guildId: string, grants: readonly Grant[]): Promise<void> {
  await cancelAll([...pendingWork(guildId, grants), { job: WelcomingJobs.catchUp, key: guildId }]);
}

/** Makes sure the guild's hourly catch-up is on the scheduler (an existing one keeps its time). */
export const keepCatchingUp = (guildId: string) => requestLater(WelcomingJobs.catchUp, guildId, HOUR_MS);

export interface CatchUpResult {
  members: number;
  pages: number;
  /** Grants made now, due at once or later. */
  owed: number;
  due: number;
  holding: number;
  rescheduled: number;
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(work));
}

/**
 * Pages the guild's members once and owes every timed role a member lacks
 * and has no grant for, due at `joined_at` + `add_after` (at once when that
 * has passed). Members holding the role are skipped; pending grants the
 * scheduler lost are scheduled again.
 */
export async function catchUp(guildId: string, now = Date.now()): Promise<CatchUpResult> {
  const result: CatchUpResult = { members: 0, pages: 0, owed: 0, due: 0, holding: 0, rescheduled: 0 };
  const timedRoles = await listTimedRoles(guildId);
  if (timedRoles.length === 0) return result;
  const known = new Map((await guildGrants(guildId)).map((g) => [`${g.member_id}#${g.timedrole_id}`, g]));

  let after: string | undefined;
  for (;;) {
    const page = await platform.listMembers(guildId, after === undefined ? { limit: MEMBER_PAGE } : { limit: MEMBER_PAGE, after });
    result.pages++;
    const owed: Grant[] = [];
    const stuck: Grant[] = [];
    for (const member of page) {
      const joinedAt = Date.parse(member.joined_at ?? '');
      if (member.user.bot || Number.isNaN(joinedAt)) continue;
      result.members++;
      for (const timedRole of timedRoles) {
        if (member.roles.includes(timedRole.role_id)) {
          result.holding++;
          continue;
        }
        const grant = known.get(`${member.user.id}#${timedRole.timedrole_id}`);
        if (!grant) owed.push(grantFor(member.user.id, timedRole, joinedAt));
        else if (grant.granted_at === undefined && grant.due_at < now - STUCK_AFTER_MS) stuck.push(grant);
      }
    }
    await inBatches(owed, async (grant) => {
      if (!(await owe(guildId, grant, 'catchUp'))) return;
      result.owed++;
      if (grant.due_at <= now) result.due++;
    });
    await inBatches(stuck, (grant) => scheduler.scheduleAt(WelcomingJobs.grant, dueKeyOf(guildId, grant), now));
    result.rescheduled += stuck.length;
    if (page.length < MEMBER_PAGE) break;
    after = page[page.length - 1]!.user.id;
  }
  return result;
}

/** After a failed hourly run (the platform unreachable), the next try comes this soon. */
const RETRY_CATCH_UP_MS = 5 * 60_000;

/**
 * The hourly catch-up of one guild (the scheduler's handler): catches up
 * while the module and its timed roles are on, and answers when to run
 * again, or null once the guild has no timed roles.
 */
export async function hourlyCatchUp(guildId: string, now = Date.now()): Promise<number | null> {
  const state = await readModuleState(guildId, 'welcoming');
  const on = Boolean(state?.enabled && (state.settings as WelcomingSettings | undefined)?.timedroles_enabled);
  if (!on) return (await listTimedRoles(guildId)).length > 0 ? now + HOUR_MS : null;
  try {
    return (await catchUp(guildId, now)).pages > 0 ? now + HOUR_MS : null;
  } catch (error) {
    log('error', 'welcoming: hourly catch-up failed', { guild_id: guildId, error: errorField(error) });
    return now + RETRY_CATCH_UP_MS;
  }
}
