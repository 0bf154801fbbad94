/** The tags module's pure parts: name rules, how a rename plans its names, and a rendered tag's mentions. */
import { describe, expect, it } from 'vitest';
import { planNames } from '#functions/tags/names.js';
import { renderTag } from '#functions/tags/render.js';
import { nameProblem, namesProblem } from '#functions/tags/schemas.js';
import type { StoredTag } from '#functions/tags/store.js';

const stored = (names: string[]): StoredTag => ({
  tag: { id: 1, guild_id: '1', tag_id: 't', content: 'c', owner_id: '2', created_at: 'x', last_update: 'x', visibility: 1 },
  names: names.map((name, i) => ({ id: i + 1, name, created_at: 'x', claim: `c${i}` })),
  version: 3,
});

describe('tag names', () => {
  it('are 1..32 characters without any whitespace', () => {
    expect(nameProblem('a', 'n')).toBeNull();
    expect(nameProblem('x'.repeat(32), 'n')).toBeNull();
    expect(nameProblem('ünïcode-ok_1', 'n')).toBeNull();
    for (const bad of ['', 'x'.repeat(33), 'a b', 'tab\there', 'new\nline']) expect(nameProblem(bad, 'n')).toContain("'n'");
  });

  it('come 1..10 to a tag, no two alike ignoring case', () => {
    expect(namesProblem(['a', 'b'])).toBeNull();
    expect(namesProblem([])).toContain('1 to 10');
    expect(namesProblem(Array.from({ length: 11 }, (_, i) => `n${i}`))).toContain('1 to 10');
    expect(namesProblem(['Tag', 'tAG'])).toContain('twice');
    expect(namesProblem(['ok', 'not ok'])).toContain("'names[1]'");
  });

  it('a rename keeps the records of names kept (in their new spelling), claims new ones, drops the rest', () => {
    const plan = planNames(stored(['one', 'Two', 'three']), ['TWO', 'four']);
    expect(plan.kept).toEqual([{ id: 2, name: 'TWO', created_at: 'x', claim: 'c1' }]);
    expect(plan.toClaim).toEqual(['four']);
    expect(plan.dropped.map((n) => n.name)).toEqual(['one', 'three']);
  });
});

describe('a rendered tag', () => {
  it('lets only the member it speaks of be mentioned', async () => {
    expect(await renderTag('1', 'Hi <user_mention> @everyone <@&99>', '42')).toEqual({
      content: 'Hi <@42> @everyone <@&99>',
      allowed_mentions: { parse: [], users: ['42'] },
    });
  });

  it('mentions no one when it speaks of no member, and leaves member variables as written', async () => {
    expect(await renderTag('1', 'Hi <user_mention>', null)).toEqual({ content: 'Hi <user_mention>', allowed_mentions: { parse: [], users: [] } });
  });
});
