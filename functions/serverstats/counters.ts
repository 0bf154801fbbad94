/**
 * Counters (behaviour §12): voice channels in the counters category named
 * with a figure of the guild, renamed as it changes, but only when the name
 * changes and at most twice per channel in any 10 minutes (the platform's
 * rename limit). A rename the budget does not allow, or that the platform
 * answers 429, waits in the counter (`_pending_name`) until the budget
 * allows and the 429's `retry_after` has passed (`_rename_after`): never
 * dropped, never retried in a loop.
 */
import { clockNow } from '#shared/clock.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { unprocessable } from '#shared/errors.js';
import { mintId } from '#shared/ids.js';
import { assertEnabled, requireEnabled, requireEnabledRecord, requireEnabledWhile } from '#shared/modules/state.js';
import { readModuleState, type ModuleStateItem } from '#shared/modules/store.js';
import { updateSettings } from '#shared/modules/settings.js';
import { createPlatformClient, isPlatformError, isPlatformNotFound, platform } from '#shared/platform/client.js';
import { requestLater, scheduler } from '#shared/scheduler/index.js';
import { DEFAULT_FORMATS, GuildFigures, MAX_NAME_LENGTH, counterDisplay } from './counter-figures.js';
import type { CreateCounterInput } from './counter-rules.js';
import {
  type Counter,
  counterRecord,
  countersTaken,
  giveCounterSlots,
  repairCounterSlots,
  takeCounterSlot,
  deleteCounter as deleteCounterItem,
  forgetGuildWithCounters,
  CounterEntity,
  getCounter,
  guildsWithCounters,
  listCounters,
  noteGuildWithCounters,
  writeCounter,
} from './counters-store.js';
import { REFRESH_JOB } from './jobs.js';

export { REFRESH_JOB };

const MODULE = 'serverstats';
export const MAX_COUNTERS = 20;
export const RENAME_WINDOW_MS = 10 * 60 * 1000;
export const RENAMES_PER_WINDOW = 2;
/** Connect, denied to @everyone on a counter channel. */
const CONNECT = String(1 << 20);
const MAX_ATTEMPTS = 8;
/** How long a 429 without a `retry_after` defers a rename. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

/** A rename must not wait out a 429 inside a request: it is deferred instead. */
const renames = createPlatformClient({ maxRateLimitWaitMs: 0, maxRateLimitRetries: 0 });

export function refreshIntervalMs(): number {
  const seconds = Number(process.env.COUNTERS_REFRESH_SECONDS || 600);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 600) * 1000;
}

function counterSettings(state: ModuleStateItem): { categoryId: string } {
  const settings = state.settings ?? {};
  const categoryId = settings.counters_category_id;
  if (settings.counters_enabled !== true || typeof categoryId !== 'string') {
    throw unprocessable(
      'Counters need counters_enabled true and a counters_category_id: set both with PUT /modules/serverstats/settings (counters_category_id "create" makes the category).',
    );
  }
  return { categoryId };
}

export async function createCounter(guildId: string, input: CreateCounterInput) {
  const id = recordIdAhead('serverstats.counter');
  const state = await requireEnabled(guildId, MODULE);
  const { categoryId } = counterSettings(state);
  await takeSlot(guildId);
  try {
    return await makeCounter(guildId, categoryId, input, id);
  } catch (error) {
    await giveCounterSlots(guildId, 1);
    throw error;
  }
}

const tooMany = (guildId: string) => unprocessable(`Guild ${guildId} has ${MAX_COUNTERS} counters, the most a guild may have; delete one first.`);

/** A create that took a place has made its counter well within this (one channel creation). */
const CREATE_SETTLES_MS = 60_000;

/**
 * Takes one of the guild's 20 places (422 when none is left). A count above
 * the counters that exist, with no place taken for a minute, was left by a
 * create that crashed: it is repaired, never while creates are in flight.
 */
async function takeSlot(guildId: string): Promise<void> {
  if (await takeCounterSlot(guildId, MAX_COUNTERS)) return;
  const [{ taken, takenAt }, counters] = await Promise.all([countersTaken(guildId), listCounters(guildId)]);
  if (counters.length >= taken || Date.now() - takenAt < CREATE_SETTLES_MS) throw tooMany(guildId);
  await repairCounterSlots(guildId, taken, counters.length);
  if (!(await takeCounterSlot(guildId, MAX_COUNTERS))) throw tooMany(guildId);
}

async function makeCounter(guildId: string, categoryId: string, input: CreateCounterInput, id: Promise<number>) {
  const spec = {
    counter_type: input.counter_type,
    role_id: input.new_role_id,
    goal_count: input.new_goal,
    format: input.new_format || DEFAULT_FORMATS[input.counter_type]!,
  };
  const figures = new GuildFigures(guildId);
  if (spec.role_id !== null && !(await figures.roleNames()).has(spec.role_id)) {
    throw unprocessable(`Field 'new_role_id': guild ${guildId} has no role ${spec.role_id}.`);
  }
  const shown = await counterDisplay(spec, figures);
  if (shown.name.length > MAX_NAME_LENGTH) {
    throw unprocessable(
      `Field 'new_format' makes the channel name '${shown.name.slice(0, 40)}…' of ${shown.name.length} characters; at most ${MAX_NAME_LENGTH} are allowed after substitution.`,
    );
  }
  const channel = await platform.createGuildChannel(guildId, {
    name: shown.name,
    type: 2 /* voice */,
    parent_id: categoryId,
    permission_overwrites: [{ id: guildId, type: 0 /* role: @everyone */, deny: CONNECT }],
  });
  const now = new Date(clockNow()).toISOString();
  const counter: Counter = {
    id: await id,
    guild_id: guildId,
    counter_id: mintId(),
    channel_id: channel.id,
    ...spec,
    value: shown.value,
    updated_at: now,
    _renames: [],
    _pending_name: null,
    _name: shown.name,
    _version: 0,
  };
  try {
    await writeCounter(counter, null);
  } catch (error) {
    await platform.deleteChannel(channel.id).catch(() => undefined);
    throw error;
  }
  await noteGuildWithCounters(guildId);
  // Minutes away: the producer sends it.
  await requestLater(REFRESH_JOB, guildId, refreshIntervalMs());
  return { counter: counterRecord(counter) };
}

/** The counter, when the module is enabled (409 first, then 404): both read in one request. */
async function loadCounter(guildId: string, counterId: string): Promise<Counter> {
  return requireEnabledRecord(guildId, MODULE, CounterEntity, { guildId, counterId }, `Guild ${guildId} has no counter ${counterId}.`);
}

export async function getCounterRecord(guildId: string, counterId: string) {
  return { counter: counterRecord(await loadCounter(guildId, counterId)) };
}

export async function listCounterRecords(guildId: string) {
  const [, counters] = await requireEnabledWhile(guildId, MODULE, () => listCounters(guildId));
  return { counters: counters.map(counterRecord) };
}

/** Deletes a counter and its channel (a channel already gone is fine). */
export async function deleteCounter(guildId: string, counterId: string) {
  const counter = await loadCounter(guildId, counterId);
  try {
    await platform.deleteChannel(counter.channel_id);
  } catch (error) {
    if (!isPlatformNotFound(error)) throw error;
  }
  const deleted = await deleteCounterItem(guildId, counterId);
  if (deleted) await giveCounterSlots(guildId, 1);
  return { counter: counterRecord(deleted ?? counter) };
}

/** POST /counters/update: refreshes now, behind the answer, the guild's counters (or every guild's). */
export async function requestRefresh(guildId: string | null) {
  if (guildId !== null) {
    await requireEnabled(guildId, MODULE);
    await scheduler.scheduleAt(REFRESH_JOB, guildId, Date.now());
    return { message: `The counters of guild ${guildId} are being refreshed.` };
  }
  const guilds = await guildsWithCounters();
  for (const guild of guilds) await scheduler.scheduleAt(REFRESH_JOB, guild, Date.now());
  return { message: `The counters of ${guilds.length} guild${guilds.length === 1 ? '' : 's'} are being refreshed.` };
}

/** POST /counters/check-delete: a deleted counter channel drops its counter; a deleted category drops every counter and turns counters off. */
export async function checkDeletedChannel(guildId: string, channelId: string) {
  const [state, counters] = await requireEnabledWhile(guildId, MODULE, () => listCounters(guildId));
  if (state.settings?.counters_category_id === channelId) {
    for (const counter of counters) if (await deleteCounterItem(guildId, counter.counter_id)) await giveCounterSlots(guildId, 1);
    await updateSettings(guildId, MODULE, { counters_enabled: false, counters_category_id: null });
    await forgetGuildWithCounters(guildId);
    return { message: `The counters category was deleted: ${counters.length} counter${counters.length === 1 ? '' : 's'} dropped and counters turned off.` };
  }
  const counter = counters.find((c) => c.channel_id === channelId);
  if (!counter) return { message: `Channel ${channelId} is not a counter channel; nothing to drop.` };
  if (await deleteCounterItem(guildId, counter.counter_id)) await giveCounterSlots(guildId, 1);
  return { message: `Counter ${counter.counter_id} dropped: its channel was deleted.` };
}

/** Renames left in a counter's budget at `now`, and when the next one frees up. */
export function renameBudget(renamesAt: string[], now: number): { left: number; freeAt: number } {
  const recent = renamesAt
    .map(Date.parse)
    .filter((t) => now - t < RENAME_WINDOW_MS)
    .sort((a, b) => a - b);
  return { left: RENAMES_PER_WINDOW - recent.length, freeAt: recent.length ? recent[0]! + RENAME_WINDOW_MS : now };
}

/** What one guild refresh did, and when the guild should be looked at again (epoch ms, or null: no counters left). */
export interface RefreshOutcome {
  renamed: number;
  deferred: number;
  unchanged: number;
  platformCalls: number;
  next: number | null;
}

/** One counter's refresh; answers when it needs looking at again if a rename had to wait. */
async function refreshCounter(counter: Counter, figures: GuildFigures, outcome: RefreshOutcome): Promise<number | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const shown = await counterDisplay(counter, figures);
    const name = shown.name.slice(0, MAX_NAME_LENGTH);
    const now = clockNow();
    const changed = { ...counter, value: shown.value, updated_at: new Date(now).toISOString() };
    if (name === counter._name) {
      if (counter._pending_name === null && counter.value === shown.value) {
        outcome.unchanged++;
        return null;
      }
      if (await writeCounter({ ...changed, _pending_name: null }, counter)) return null;
    } else {
      const budget = renameBudget(counter._renames, now);
      // Not before the budget frees a rename, nor before the platform's last retry_after has passed.
      const allowedAt = Math.max(budget.left > 0 ? now : budget.freeAt, counter._rename_after ?? 0);
      let waitUntil: number | null = null;
      if (allowedAt <= now) {
        try {
          outcome.platformCalls++;
          await renames.renameChannel(counter.channel_id, name);
        } catch (error) {
          if (!isPlatformError(error, { status: 429 })) throw error;
          waitUntil = now + (error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS);
        }
      } else {
        waitUntil = allowedAt;
      }
      if (waitUntil === null) {
        const recent = [...counter._renames, new Date(now).toISOString()].slice(-RENAMES_PER_WINDOW);
        if (await writeCounter({ ...changed, _name: name, _pending_name: null, _rename_after: null, _renames: recent }, counter)) {
          outcome.renamed++;
          return null;
        }
      } else if (await writeCounter({ ...counter, _pending_name: name, _rename_after: waitUntil }, counter)) {
        outcome.deferred++;
        return waitUntil;
      }
    }
    const fresh = await getCounter(counter.guild_id, counter.counter_id);
    if (!fresh) return null;
    counter = fresh;
  }
  throw new Error(`counter ${counter.counter_id} kept changing during its refresh`);
}

/**
 * The scheduled refresh of one guild: every counter whose name changes is
 * renamed within its budget; a rename that must wait sets the guild's next
 * run to when the budget allows. Runs while the module is disabled too, but
 * renames nothing then (counters off, or module disabled).
 */
export async function refreshGuild(guildId: string): Promise<RefreshOutcome> {
  const outcome: RefreshOutcome = { renamed: 0, deferred: 0, unchanged: 0, platformCalls: 0, next: null };
  const counters = await listCounters(guildId);
  if (counters.length === 0) {
    await forgetGuildWithCounters(guildId);
    return outcome;
  }
  outcome.next = Date.now() + refreshIntervalMs();
  const state = await readModuleState(guildId, MODULE);
  const active = state?.enabled === true && state.settings?.counters_enabled === true;
  if (!active) return outcome;
  assertEnabled(guildId, MODULE, state);
  const figures = new GuildFigures(guildId);
  for (const counter of counters) {
    const waitUntil = await refreshCounter(counter, figures, outcome);
    // The scheduler's clock is the system clock; the budget's may run ahead in tests.
    if (waitUntil !== null) outcome.next = Math.min(outcome.next, Date.now() + Math.max(0, waitUntil - clockNow()));
  }
  outcome.platformCalls += figures.calls;
  return outcome;
}
