/**
 * A removal behind an answer (behaviour §15): a delete of a guild's data
 * that may be millions of items answers at once, notes a pending removal
 * (its cutoff, the delete's time) and asks the scheduler to remove the
 * items behind the answer in bounded runs. Each run reads the module's range
 * a page at a time from the stored place, deletes what the module says
 * goes, and moves the place on with one write conditional on the place it
 * read and on the cutoff. A repeated run deletes what is already gone and
 * its move fails; a second delete while one runs moves the cutoff and
 * starts again from the start of the range. The module keeps its reads
 * reset meanwhile (a cutoff on its reads, or records whose owner is gone).
 */
import { type Item, type Key, entity } from '../db/entity.js';
import type { Condition } from '../db/expression.js';
import { type RunBudget, mayGoOn, runBudget } from './budget.js';
import { requestLater } from './table-only.js';

/** A removal under way: what goes is decided against `cutoff`, from after the sort key `after` (null: the start). */
export interface PendingRemoval {
  cutoff: string;
  after: string | null;
}

/** A key deleted only while `condition` holds on its item (one conditional delete each; a failed condition keeps the item). */
export interface GuardedKey {
  key: Key;
  condition: Condition;
}

/** What a page's selection deletes: a key (in batches, unconditionally) or a guarded key. */
export type Selected = Key | GuardedKey;

const isGuarded = (selected: Selected): selected is GuardedKey => 'condition' in selected;

/** Guarded deletes sent at once. */
const PARALLEL_GUARDED = 25;

/**
 * Items by their table key, whatever entity they are: a removal is given
 * keys by the module it serves (its place, the keys it selects), never the
 * fields of the module's entities. With a name, the items it writes carry it.
 */
const byKey = (name = '') => entity({ name, prefix: '', pk: (key: Key) => key.pk, sk: (key: Key) => [key.sk], parse: (item): Item => item });
const Keyed = byKey();

/** A range read a page at a time: the items of a partition whose sort keys begin with the prefix (every item: none). */
const rangeOf = (pk: string, prefix = '') => entity({ name: '', prefix, pk: (_: object) => pk, parse: (item): Item => item });

/** Deletes the keys unconditionally and the guarded keys each on its condition; answers how many went. */
async function deleteSelected(selected: readonly Selected[]): Promise<number> {
  const keys = selected.filter((s): s is Key => !isGuarded(s));
  const guarded = selected.filter(isGuarded);
  await Keyed.deleteMany(keys);
  let deleted = keys.length;
  for (let i = 0; i < guarded.length; i += PARALLEL_GUARDED) {
    const done = await Promise.all(guarded.slice(i, i + PARALLEL_GUARDED).map((g) => Keyed.delete(g.key, { condition: g.condition })));
    deleted += done.filter(Boolean).length;
  }
  return deleted;
}

export interface RemovalSpec {
  /** The scheduler job that runs it; its key is the scope (a guild ID, or more). */
  job: string;
  /** The pending removal's item of a scope and its entity name; the item is never removed by its own run. */
  place: (scope: string) => Key;
  placeEntity: string;
  /** The range read: a partition and, optionally, the sort-key prefix of the module's items in it. */
  range: (scope: string) => { pk: string; prefix?: string };
  /** The attributes a page reads, named with commas (the keys and what `select` looks at). */
  projection: string;
  /** Items a page reads (a page of keys stays a few hundred KiB). */
  pageSize?: number;
  /**
   * The keys to delete for a page read (what stays gives none). Called after
   * the page is read, so what it reads to decide (the records that still
   * own items) is at least as new as the page. An item a write after the
   * cutoff may have made anew under the same key (a member's pointer) goes
   * as a {@link GuardedKey}, deleted only while it is still old.
   */
  select: (scope: string, removal: PendingRemoval, items: Item[]) => Selected[] | Promise<Selected[]>;
  /** Pages a scheduled run reads at most, and the environment variable that lowers it (tests, the bench). */
  maxPages: number;
  pagesEnv: string;
}

export interface RemovalRun {
  /** Items read and items deleted in this run (a guarded key whose item stayed is not counted). */
  read: number;
  deleted: number;
  pages: number;
  /** Whether the removal is complete. */
  done: boolean;
}

export interface Removal {
  /** Notes a delete at `cutoff` and asks the scheduler for its removal. */
  start(scope: string, cutoff: string): Promise<void>;
  get(scope: string): Promise<PendingRemoval | null>;
  /** One run from where the removal stands, within `budget`. */
  run(scope: string, budget: RunBudget): Promise<RemovalRun>;
  /** A scheduled run's budget from the time its function has left. */
  budget(remainingMs: number): RunBudget;
}

const parse = (item: Item): PendingRemoval => ({ cutoff: String(item.cutoff), after: item.after_sk === undefined ? null : String(item.after_sk) });

export function removal(spec: RemovalSpec): Removal {
  const { job, place, range } = spec;
  const Place = byKey(spec.placeEntity);
  const projection = spec.projection.split(',').map((name) => name.trim());
  const pageSize = spec.pageSize ?? 2000;

  async function get(scope: string): Promise<PendingRemoval | null> {
    const item = await Place.get(place(scope));
    return item && parse(item);
  }

  /** A delete at `cutoff`: from the start of the range (what was written since an earlier delete is now old too). */
  async function start(scope: string, cutoff: string): Promise<void> {
    await Place.put(place(scope), { cutoff });
    await requestLater(job, scope, 0);
  }

  /** Moves the removal at `at.cutoff` on to `after`, only from where it was read. */
  const move = (scope: string, at: PendingRemoval, after: string) =>
    Place.update(place(scope), {
      set: { after_sk: after },
      condition: { cutoff: at.cutoff, after_sk: at.after === null ? { exists: false } : at.after },
      returnValues: 'NONE',
    });

  /** The removal at `cutoff` reached the end of the range: done, unless a later delete replaced it. */
  const end = (scope: string, cutoff: string) => Place.delete(place(scope), { condition: { cutoff } });

  /** A page of the range after the sort key `after`; `lastSk` is null once the range has no more (a page short of the page size). */
  async function page(scope: string, after: string | null): Promise<{ items: Item[]; lastSk: string | null }> {
    const { pk, prefix } = range(scope);
    const items = (await rangeOf(pk, prefix).query({}, { projection, limit: pageSize, ...(after === null ? {} : { after }) })) as Item[];
    return { items, lastSk: items.length < pageSize ? null : String(items[items.length - 1]!.sk) };
  }

  async function run(scope: string, budget: RunBudget): Promise<RemovalRun> {
    const result: RemovalRun = { read: 0, deleted: 0, pages: 0, done: false };
    let at = await get(scope);
    if (!at) return { ...result, done: true };
    const own = place(scope);
    while (mayGoOn(budget, result.pages)) {
      const read = await page(scope, at.after);
      const selected = await spec.select(
        scope,
        at,
        read.items.filter((item) => !(item.pk === own.pk && item.sk === own.sk)),
      );
      result.deleted += await deleteSelected(selected);
      result.pages++;
      result.read += read.items.length;
      if (read.lastSk === null) {
        result.done = await end(scope, at.cutoff);
        break;
      }
      if (!(await move(scope, at, read.lastSk))) break;
      at = { ...at, after: read.lastSk };
    }
    return result;
  }

  return { start, get, run, budget: (remainingMs) => runBudget(remainingMs, spec.maxPages, spec.pagesEnv) };
}
