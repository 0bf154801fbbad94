/**
 * Claim transitions: given a panel's rules and entries, what a member holds,
 * and what the member did, which entries they hold afterwards and which
 * roles change. Pure functions; the use case reads, applies and writes.
 */
import type { Entry, PanelSettings } from './model.js';

/** What a member did on a panel, with the entries it names (already resolved). */
export type Trigger =
  | { kind: 'reaction_add'; entryId: string }
  | { kind: 'reaction_delete'; entryId: string }
  | { kind: 'button'; entryId: string }
  /** A dropdown answer: the entries the member has selected now (empty: all deselected). */
  | { kind: 'select'; entryIds: string[] };

/** Why nothing changed. */
export type Unchanged =
  | 'already_held'
  | 'not_held'
  | 'remove_not_supported'
  /** keep_counter_at_one: the service removed the reaction itself, its removal means nothing. */
  | 'reaction_delete_ignored';

export interface Transition {
  /** The entries held afterwards, in panel order. */
  held: string[];
  claimed: string[];
  released: string[];
  /** Roles to grant: those of claimed entries not already granted by an entry the member keeps. */
  rolesToAdd: string[];
  /** Roles to take: those of released entries that no entry held afterwards grants. */
  rolesToRemove: string[];
  /** Set when nothing changed. */
  unchanged: Unchanged | null;
}

type Rules = Pick<PanelSettings, 'limit_roles_to_one' | 'supports_remove' | 'keep_counter_at_one'>;

/** The roles the given entries of a panel grant together. */
export const rolesOf = (entries: Entry[], ids: Iterable<string>): Set<string> => {
  const wanted = new Set(ids);
  return new Set(entries.filter((e) => wanted.has(e.entry_id)).flatMap((e) => e.role_ids));
};

/**
 * The transition from `before` to `after` (both sets of entry IDs of this
 * panel): which entries were claimed and released, and the role changes
 * that make the member's roles match `after`.
 */
export function diff(entries: Entry[], before: Iterable<string>, after: Iterable<string>, unchanged: Unchanged | null = null): Transition {
  const from = new Set(before);
  const to = new Set(after);
  const ordered = (set: Set<string>) => entries.map((e) => e.entry_id).filter((id) => set.has(id));
  const claimed = ordered(new Set([...to].filter((id) => !from.has(id))));
  const released = ordered(new Set([...from].filter((id) => !to.has(id))));
  const kept = [...to].filter((id) => from.has(id));
  const keptRoles = rolesOf(entries, kept);
  const targetRoles = rolesOf(entries, to);
  return {
    held: ordered(to),
    claimed,
    released,
    rolesToAdd: [...rolesOf(entries, claimed)].filter((role) => !keptRoles.has(role)),
    rolesToRemove: [...rolesOf(entries, released)].filter((role) => !targetRoles.has(role)),
    unchanged: claimed.length === 0 && released.length === 0 ? (unchanged ?? 'already_held') : null,
  };
}

/** Claims one entry: with limit_roles_to_one every other held entry goes. */
function claim(rules: Rules, held: Set<string>, entryId: string): Set<string> {
  return rules.limit_roles_to_one ? new Set([entryId]) : new Set([...held, entryId]);
}

function release(held: Set<string>, entryId: string): Set<string> {
  return new Set([...held].filter((id) => id !== entryId));
}

/** Claim when not held; when held, release if the panel supports removing. */
function toggle(rules: Rules, entries: Entry[], held: Set<string>, entryId: string): Transition {
  if (!held.has(entryId)) return diff(entries, held, claim(rules, held, entryId));
  if (!rules.supports_remove) return diff(entries, held, held, 'remove_not_supported');
  return diff(entries, held, release(held, entryId));
}

/**
 * What a trigger does to a member holding `heldIds`. IDs of entries the
 * panel no longer has are dropped from the result.
 */
export function transition(rules: Rules, entries: Entry[], heldIds: string[], trigger: Trigger): Transition {
  const known = new Set(entries.map((e) => e.entry_id));
  const held = new Set(heldIds.filter((id) => known.has(id)));

  switch (trigger.kind) {
    case 'reaction_add':
      // With the counter kept at one, every reaction is a fresh click.
      if (rules.keep_counter_at_one) return toggle(rules, entries, held, trigger.entryId);
      if (held.has(trigger.entryId)) return diff(entries, held, held, 'already_held');
      return diff(entries, held, claim(rules, held, trigger.entryId));
    case 'reaction_delete':
      if (rules.keep_counter_at_one) return diff(entries, held, held, 'reaction_delete_ignored');
      if (!held.has(trigger.entryId)) return diff(entries, held, held, 'not_held');
      if (!rules.supports_remove) return diff(entries, held, held, 'remove_not_supported');
      return diff(entries, held, release(held, trigger.entryId));
    case 'button':
      return toggle(rules, entries, held, trigger.entryId);
    case 'select': {
      const selected = new Set(trigger.entryIds);
      const added = [...selected].filter((id) => !held.has(id));
      let after: Set<string>;
      if (rules.limit_roles_to_one && added.length > 0) {
        // One entry at most: the newly selected one replaces whatever was held.
        after = new Set([added[0]!]);
      } else if (rules.supports_remove) {
        after = selected;
      } else {
        after = new Set([...held, ...selected]);
      }
      const kept = [...held].some((id) => !selected.has(id));
      const nothing: Unchanged = kept ? 'remove_not_supported' : selected.size > 0 ? 'already_held' : 'not_held';
      return diff(entries, held, after, nothing);
    }
  }
}

/** Drops one entry from what a member holds (the entry is being deleted). */
export function dropEntry(entries: Entry[], heldIds: string[], entryId: string): Transition {
  return diff(
    entries,
    heldIds,
    heldIds.filter((id) => id !== entryId),
    'not_held',
  );
}
