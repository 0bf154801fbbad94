import { describe, expect, it } from 'vitest';
import { type Trigger, diff, dropEntry, transition } from '#functions/reactionroles/claims.js';
import type { Entry } from '#functions/reactionroles/model.js';

const entry = (id: string, roles: string[]): Entry => ({
  id: 1,
  entry_id: id,
  role_ids: roles,
  emoji_name: '😀',
  emoji_id: null,
  text: null,
  description: null,
});
const A = entry('a', ['1', '2']);
const B = entry('b', ['2', '3']);
const C = entry('c', ['4']);
const entries = [A, B, C];

const rules = (over: Partial<{ limit_roles_to_one: boolean; supports_remove: boolean; keep_counter_at_one: boolean }> = {}) => ({
  limit_roles_to_one: false,
  supports_remove: false,
  keep_counter_at_one: false,
  ...over,
});

const add = (entryId: string): Trigger => ({ kind: 'reaction_add', entryId });
const del = (entryId: string): Trigger => ({ kind: 'reaction_delete', entryId });
const button = (entryId: string): Trigger => ({ kind: 'button', entryId });
const select = (...entryIds: string[]): Trigger => ({ kind: 'select', entryIds });

describe('diff', () => {
  it('grants only roles not already given by a kept entry and takes only roles no remaining entry gives', () => {
    expect(diff(entries, ['a'], ['a', 'b'])).toMatchObject({ claimed: ['b'], released: [], rolesToAdd: ['3'], rolesToRemove: [], unchanged: null });
    expect(diff(entries, ['a', 'b'], ['b'])).toMatchObject({ released: ['a'], rolesToAdd: [], rolesToRemove: ['1'] });
    expect(diff(entries, ['a'], ['b'])).toMatchObject({ claimed: ['b'], released: ['a'], rolesToAdd: ['2', '3'], rolesToRemove: ['1'] });
    expect(diff(entries, ['c', 'a'], ['a', 'c'])).toMatchObject({ held: ['a', 'c'], unchanged: 'already_held' });
  });
});

describe('reactions', () => {
  it('claims on add, keeps on a second add, and releases on delete only with supports_remove', () => {
    expect(transition(rules(), entries, [], add('a'))).toMatchObject({ held: ['a'], claimed: ['a'], rolesToAdd: ['1', '2'] });
    expect(transition(rules(), entries, ['a'], add('a'))).toMatchObject({ held: ['a'], unchanged: 'already_held' });
    expect(transition(rules(), entries, ['a'], add('b'))).toMatchObject({ held: ['a', 'b'], rolesToAdd: ['3'] });
    expect(transition(rules(), entries, ['a'], del('a'))).toMatchObject({ held: ['a'], unchanged: 'remove_not_supported', rolesToRemove: [] });
    expect(transition(rules({ supports_remove: true }), entries, ['a', 'b'], del('a'))).toMatchObject({ held: ['b'], released: ['a'], rolesToRemove: ['1'] });
    expect(transition(rules({ supports_remove: true }), entries, ['b'], del('a'))).toMatchObject({ unchanged: 'not_held' });
  });

  it('limit_roles_to_one: a new claim releases the old one, even without supports_remove', () => {
    const t = transition(rules({ limit_roles_to_one: true }), entries, ['a'], add('c'));
    expect(t).toMatchObject({ held: ['c'], claimed: ['c'], released: ['a'], rolesToAdd: ['4'], rolesToRemove: ['1', '2'] });
    // Claiming grants all of the entry's roles (role 2 again); only roles no held entry gives are taken.
    expect(transition(rules({ limit_roles_to_one: true }), entries, ['a'], add('b'))).toMatchObject({
      held: ['b'],
      rolesToAdd: ['2', '3'],
      rolesToRemove: ['1'],
    });
  });

  it('keep_counter_at_one: an add toggles, a delete is ignored', () => {
    const keep = rules({ keep_counter_at_one: true, supports_remove: true });
    expect(transition(keep, entries, [], add('a'))).toMatchObject({ held: ['a'] });
    expect(transition(keep, entries, ['a'], add('a'))).toMatchObject({ held: [], released: ['a'], rolesToRemove: ['1', '2'] });
    expect(transition(keep, entries, ['a'], del('a'))).toMatchObject({ held: ['a'], unchanged: 'reaction_delete_ignored' });
    expect(transition(rules({ keep_counter_at_one: true }), entries, ['a'], add('a'))).toMatchObject({ held: ['a'], unchanged: 'remove_not_supported' });
    expect(transition({ ...keep, limit_roles_to_one: true }, entries, ['a'], add('b'))).toMatchObject({ held: ['b'], released: ['a'] });
  });
});

describe('buttons', () => {
  it('toggle: claim when not held, release when held and supported', () => {
    expect(transition(rules(), entries, [], button('c'))).toMatchObject({ held: ['c'] });
    expect(transition(rules({ supports_remove: true }), entries, ['c'], button('c'))).toMatchObject({ held: [], rolesToRemove: ['4'] });
    expect(transition(rules(), entries, ['c'], button('c'))).toMatchObject({ held: ['c'], unchanged: 'remove_not_supported' });
    expect(transition(rules({ limit_roles_to_one: true }), entries, ['c'], button('a'))).toMatchObject({ held: ['a'], released: ['c'] });
  });
});

describe('dropdowns', () => {
  it('the selection is what the member wants: new options claimed, deselected ones released with supports_remove', () => {
    const free = rules({ supports_remove: true });
    expect(transition(free, entries, ['a'], select('a', 'c'))).toMatchObject({ held: ['a', 'c'], claimed: ['c'], released: [] });
    expect(transition(free, entries, ['a', 'c'], select('b'))).toMatchObject({
      held: ['b'],
      released: ['a', 'c'],
      rolesToAdd: ['2', '3'],
      rolesToRemove: ['1', '4'],
    });
    expect(transition(free, entries, ['a'], select())).toMatchObject({ held: [], released: ['a'] });
    expect(transition(free, entries, ['a'], select('a'))).toMatchObject({ unchanged: 'already_held' });
    expect(transition(free, entries, [], select())).toMatchObject({ unchanged: 'not_held' });
  });

  it('without supports_remove only adds; with limit_roles_to_one the new option replaces the old', () => {
    expect(transition(rules(), entries, ['a'], select('b'))).toMatchObject({ held: ['a', 'b'], released: [] });
    expect(transition(rules(), entries, ['a'], select())).toMatchObject({ held: ['a'], unchanged: 'remove_not_supported' });
    expect(transition(rules({ limit_roles_to_one: true }), entries, ['a'], select('c'))).toMatchObject({ held: ['c'], released: ['a'] });
    expect(transition(rules({ limit_roles_to_one: true }), entries, ['a'], select())).toMatchObject({ held: ['a'], unchanged: 'remove_not_supported' });
    expect(transition(rules({ limit_roles_to_one: true, supports_remove: true }), entries, ['a'], select())).toMatchObject({ held: [] });
  });
});

describe('stale and deleted entries', () => {
  it('forgets held IDs the panel no longer has', () => {
    expect(transition(rules(), entries, ['gone', 'a'], add('b'))).toMatchObject({ held: ['a', 'b'] });
  });

  it('dropEntry takes the deleted entry and the roles only it gave', () => {
    expect(dropEntry(entries, ['a', 'b'], 'a')).toMatchObject({ held: ['b'], released: ['a'], rolesToRemove: ['1'] });
    expect(dropEntry(entries, ['c'], 'a')).toMatchObject({ held: ['c'], unchanged: 'not_held' });
  });
});
