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
 * who joined while the service was down, or before the role existed. A pass
 * over a large guild spans runs (behaviour §15): each run does a bounded
 * number of pages, the pass's place is stored, and the next run is asked
 * for before the current one ends.
 */
import type { APIGuildMember } from 'discord-api-types/v10';
import { PlatformCode, isPlatformNotFound, platform } from '#shared/platform/client.js';
import { guildKey, readModuleState } from '#shared/modules/store.js';
import { removal } from '#shared/scheduler/removal.js';
import { type RunBudget, answerBudget, mayGoOn, runBudget } from '#shared/scheduler/budget.js';
import { type WorkRef, cancelAll, dueKeysOf, requestLater, scheduler } from '#shared/scheduler/index.js';
import { GRANT_SWEEP_ENTITY, GrantEntity, GrantSweepEntity, WelcomingJobs, grantDueKey } from './keys.js';
import { GRANT_SWEEP_JOB } from './jobs.js';
import type { Grant, TimedRole, WelcomingSettings } from './model.js';
import {
  catchUpPlace,
  deleteGrant,
  deleteGrants,
  endCatchUp,
  grantContext,
  grantsOf,
  listTimedRoles,
  markGranted,
  memberGrants,
  moveCatchUp,
  putGrant,
} from './store.js';
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

/**
 * The grants whose timed role is gone, a million in a large guild, are
 * removed behind the answer of the delete that removed the timed role (or
 * all of them), with their due work (behaviour §15). Until then they own
 * nothing: a due one finds its timed role gone and is cancelled, the
 * catch-up reads only the grants of existing timed roles, and privacy counts
 * only those. Each page of grants is judged against the timed roles read
 * after it, so a grant of a timed role made meanwhile (its role is stored
 * before its first grant) always stays.
 */
// Marked, and its arguments read no property, so the bundles that never run the sweep (reads, the join and leave checks) leave it and the removal code out.
export const grantSweep = /* @__PURE__ */ removal({
  job: GRANT_SWEEP_JOB,
  place: (guildId) => GrantSweepEntity.key({ guildId }),
  placeEntity: GRANT_SWEEP_ENTITY,
  range: (guildId) => ({ pk: guildKey(guildId), prefix: GrantEntity.prefix }),
  projection: 'pk, sk, member_id, timedrole_id, role_id, due_at, granted_at',
  select: async (guildId, _pending, items) => {
    if (items.length === 0) return [];
    const gone = await withoutTimedRole(guildId, items.map(GrantEntity.parse));
    return [...gone.map((g) => GrantEntity.key({ guildId, memberId: g.member_id, timedRoleId: g.timedrole_id })), ...dueKeysOf(pendingWork(guildId, gone))];
  },
  maxPages: 200,
  pagesEnv: 'WELCOMING_SWEEP_PAGES',
});

/** The grants among these whose timed role no longer exists. */
async function withoutTimedRole(guildId: string, grants: readonly Grant[]): Promise<Grant[]> {
  const live = new Set((await listTimedRoles(guildId)).map((t) => t.timedrole_id));
  return grants.filter((g) => !live.has(g.timedrole_id));
}

/** The grants among these that still own something: those of existing timed roles. */
export async function liveGrants(guildId: string, grants: readonly Grant[]): Promise<Grant[]> {
  if (grants.length === 0) return [];
  const gone = new Set(await withoutTimedRole(guildId, grants));
  return grants.filter((g) => !gone.has(g));
}

/** A timed role (or the module) was deleted: nobody gets it any more; its grants go behind the answer. */
export const sweepGrants = (guildId: string) => grantSweep.start(guildId, new Date().toISOString());

/** The module's items of the guild are deleted: the hourly catch-up goes, and the grants behind the answer. */
export async function cancelGuildWork(guildId: string): Promise<void> {
  await Promise.all([cancelAll([{ job: WelcomingJobs.catchUp, key: guildId }]), sweepGrants(guildId)]);
}

/** Makes sure the guild's hourly catch-up is on the scheduler (an existing one keeps its time). */
export const keepCatchingUp = (guildId: string) => requestLater(WelcomingJobs.catchUp, guildId, HOUR_MS);

export interface CatchUpResult {
  /** Timed roles of the guild (0: nothing to catch up). */
  timedRoles: number;
  members: number;
  pages: number;
  /** Grants made now, due at once or later. */
  owed: number;
  due: number;
  holding: number;
  rescheduled: number;
  /** Whether the pass reached the end of the member list (else it goes on from the stored place). */
  done: boolean;
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(work));
}

/** What one call of `/check/role/timed` does before answering: 20 pages (`WELCOMING_CATCHUP_CHECK_PAGES` lowers it) within 4 s. */
const apiBudget = () => answerBudget(20, 'WELCOMING_CATCHUP_CHECK_PAGES');

/** One page of members: owes every timed role a member lacks and has no grant for, and schedules again grants the scheduler lost. */
async function catchUpPage(
  guildId: string,
  page: readonly APIGuildMember[],
  timedRoles: readonly TimedRole[],
  result: CatchUpResult,
  now: number,
): Promise<void> {
  const lacking: { member: string; joinedAt: number; timedRole: TimedRole }[] = [];
  for (const member of page) {
    const joinedAt = Date.parse(member.joined_at ?? '');
    if (member.user.bot || Number.isNaN(joinedAt)) continue;
    result.members++;
    for (const timedRole of timedRoles) {
      if (member.roles.includes(timedRole.role_id)) result.holding++;
      else lacking.push({ member: member.user.id, joinedAt, timedRole });
    }
  }
  // The grants of this page's members only: a guild's grants are never read whole.
  const known = new Map(
    (
      await grantsOf(
        guildId,
        lacking.map((l) => ({ memberId: l.member, timedRoleId: l.timedRole.timedrole_id })),
      )
    ).map((g) => [`${g.member_id}#${g.timedrole_id}`, g]),
  );
  const owed: Grant[] = [];
  const stuck: Grant[] = [];
  for (const { member, joinedAt, timedRole } of lacking) {
    const grant = known.get(`${member}#${timedRole.timedrole_id}`);
    if (!grant) owed.push(grantFor(member, timedRole, joinedAt));
    else if (grant.granted_at === undefined && grant.due_at < now - STUCK_AFTER_MS) stuck.push(grant);
  }
  await inBatches(owed, async (grant) => {
    if (!(await owe(guildId, grant, 'catchUp'))) return;
    result.owed++;
    if (grant.due_at <= now) result.due++;
  });
  await inBatches(stuck, (grant) => scheduler.scheduleAt(WelcomingJobs.grant, dueKeyOf(guildId, grant), now));
  result.rescheduled += stuck.length;
}

/**
 * Pages the guild's members, from where the running pass stands (the
 * start when none runs), within `budget`, and owes every timed role a member
 * lacks and has no grant for, due at `joined_at` + `add_after` (at once when
 * that has passed). Members holding the role are skipped; pending grants
 * the scheduler lost are scheduled again. After each page the pass's place
 * moves on with one conditional write from where this run read it: a run
 * that repeats pages (a redelivery after a crash) owes nothing twice, as a
 * grant is written only where none exists, and a run that finds the place
 * moved by another stops, leaving the pass to it.
 */
export async function catchUp(guildId: string, budget: RunBudget = apiBudget(), now = Date.now()): Promise<CatchUpResult> {
  const result: CatchUpResult = { timedRoles: 0, members: 0, pages: 0, owed: 0, due: 0, holding: 0, rescheduled: 0, done: false };
  const [timedRoles, from] = await Promise.all([listTimedRoles(guildId), catchUpPlace(guildId)]);
  result.timedRoles = timedRoles.length;
  if (timedRoles.length === 0) return { ...result, done: true };

  let place = from;
  while (mayGoOn(budget, result.pages)) {
    const page = await platform.listMembers(guildId, place === null ? { limit: MEMBER_PAGE } : { limit: MEMBER_PAGE, after: place });
    result.pages++;
    await catchUpPage(guildId, page, timedRoles, result, now);
    if (page.length < MEMBER_PAGE) {
      if (place !== null) await endCatchUp(guildId, place);
      result.done = true;
      break;
    }
    const next = page[page.length - 1]!.user.id;
    if (!(await moveCatchUp(guildId, place, next))) break;
    place = next;
  }
  return result;
}

/** A scheduled run's budget from the time its function has left: at most 200 pages (`WELCOMING_CATCHUP_PAGES` lowers it). */
export const catchUpBudget = (remainingMs: number) => runBudget(remainingMs, 200, 'WELCOMING_CATCHUP_PAGES');

/** Asks the scheduler to go on with a pass at once (a call of `/check/role/timed` that did not finish it). */
export const goOnCatchingUp = (guildId: string) => scheduler.scheduleAt(WelcomingJobs.catchUp, guildId, Date.now());

/** After a failed hourly run (the platform unreachable), the next try comes this soon. */
const RETRY_CATCH_UP_MS = 5 * 60_000;

/**
 * A scheduled catch-up run of one guild (the scheduler's handler): while the
 * module and its timed roles are on, goes on with the pass within `budget`
 * and answers when to run again: at once while the pass goes on, in an hour
 * once it reached the end, or null once the guild has no timed roles.
 */
export async function hourlyCatchUp(guildId: string, budget: RunBudget = catchUpBudget(30_000), now = Date.now()): Promise<number | null> {
  const state = await readModuleState(guildId, 'welcoming');
  const on = Boolean(state?.enabled && (state.settings as WelcomingSettings | undefined)?.timedroles_enabled);
  if (!on) return (await listTimedRoles(guildId)).length > 0 ? now + HOUR_MS : null;
  try {
    const result = await catchUp(guildId, budget, now);
    if (result.timedRoles === 0) return null;
    return result.done ? now + HOUR_MS : Date.now();
  } catch (error) {
    log('error', 'welcoming: hourly catch-up failed', { guild_id: guildId, error: errorField(error) });
    return now + RETRY_CATCH_UP_MS;
  }
}
