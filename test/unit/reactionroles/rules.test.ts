import { describe, expect, it } from 'vitest';
import type { Entry } from '#functions/reactionroles/model.js';
import { SELECT_CUSTOM_ID, describeTransition, entryIdOfButton, renderComponents, renderMessage } from '#functions/reactionroles/render.js';
import { contentProblem, emojiKey, emojiProblem, entriesProblem, parseEmbed } from '#functions/reactionroles/rules.js';

const entry = (i: number, text: string | null = `t${i}`): Entry => ({
  id: i,
  entry_id: `e${i}`,
  role_ids: ['1'],
  emoji_name: '😀',
  emoji_id: null,
  text,
  description: null,
});

describe('emoji', () => {
  it('accepts one unicode emoji or a custom name with an ID', () => {
    for (const ok of ['😀', '❤️', '👍🏽', '🇫🇷', '1️⃣', '👨‍👩‍👧']) expect(emojiProblem(ok, null), ok).toBeNull();
    for (const bad of ['smile', '', '12', 'a😀', ' 😀']) expect(emojiProblem(bad, null), bad).not.toBeNull();
    expect(emojiProblem('party_parrot', '1')).toBeNull();
    expect(emojiProblem('<:x:1>', '1')).not.toBeNull();
  });

  it('identifies custom emojis by ID and unicode ones without variation selectors', () => {
    expect(emojiKey('a', '1')).toBe(emojiKey('b', '1'));
    expect(emojiKey('❤️', null)).toBe(emojiKey('❤', null));
    expect(emojiKey('😀', null)).not.toBe(emojiKey('😃', null));
  });
});

describe('message content', () => {
  it('limits plain content to 1..2000 characters', () => {
    expect(contentProblem('x'.repeat(2000), false)).toBeNull();
    expect(contentProblem('x'.repeat(2001), false)).toContain('at most 2000');
    expect(contentProblem('', false)).toBe('must not be empty');
  });

  it('wants embed JSON that parses to a showable object within the platform limits', () => {
    expect(parseEmbed('{"title":"t"}')).toEqual({ embed: { title: 't' } });
    expect(contentProblem('{}', true)).toContain('at least one of');
    expect(contentProblem('"text"', true)).toContain('parses to an object');
    expect(contentProblem('{"title": 5}', true)).toContain("'title' is a string");
    expect(contentProblem(JSON.stringify({ title: 't'.repeat(257) }), true)).toContain("'title' is at most 256");
    expect(contentProblem(JSON.stringify({ footer: 'f' }), true)).toContain("'footer' is an object");
    expect(contentProblem(JSON.stringify({ fields: [{ name: 'n' }] }), true)).toContain("'fields[0]'");
    const full = { description: 'd'.repeat(4096), fields: [{ name: 'n'.repeat(256), value: 'v'.repeat(1024) }], footer: { text: 'f'.repeat(624) } };
    expect(contentProblem(JSON.stringify(full), true)).toBeNull();
    full.footer.text += 'f';
    expect(contentProblem(JSON.stringify(full), true)).toContain('(it has 6001)');
  });
});

describe('entries of a panel type', () => {
  it('counts entries and checks texts against the type', () => {
    expect(
      entriesProblem(
        'emoji',
        Array.from({ length: 20 }, (_, i) => entry(i)),
      ),
    ).toBeNull();
    expect(
      entriesProblem(
        'emoji',
        Array.from({ length: 21 }, (_, i) => entry(i)),
      ),
    ).toContain('at most 20');
    expect(
      entriesProblem(
        'button',
        Array.from({ length: 26 }, (_, i) => entry(i)),
      ),
    ).toContain('at most 25');
    expect(entriesProblem('dropdown', [entry(1, null)])).toContain("needs 'text'");
    expect(entriesProblem('button', [entry(1, 'x'.repeat(81))])).toContain('at most 80');
    expect(entriesProblem('button', [entry(1, null)])).toBeNull();
  });
});

describe('rendering', () => {
  it('puts buttons in rows of five, one dropdown, nothing on emoji panels', () => {
    const entries = Array.from({ length: 12 }, (_, i) => entry(i));
    expect(renderComponents({ panel_type: 'button', limit_roles_to_one: false, entries }).map((r) => r.components.length)).toEqual([5, 5, 2]);
    const [row] = renderComponents({ panel_type: 'dropdown', limit_roles_to_one: true, entries });
    expect(row?.components[0]).toMatchObject({ type: 3, custom_id: SELECT_CUSTOM_ID, max_values: 1, min_values: 0 });
    expect(renderComponents({ panel_type: 'emoji', limit_roles_to_one: false, entries })).toEqual([]);
    expect(renderComponents({ panel_type: 'dropdown', limit_roles_to_one: false, entries: [] })).toEqual([]);
  });

  it('renders an embed panel with empty content and a plain one without embeds', () => {
    const base = { panel_type: 'emoji' as const, limit_roles_to_one: false, entries: [] };
    expect(renderMessage({ ...base, message_is_embed: true, message_content: '{"title":"x"}' })).toEqual({
      content: '',
      embeds: [{ title: 'x' }],
      components: [],
    });
    expect(renderMessage({ ...base, message_is_embed: false, message_content: 'hi' })).toEqual({ content: 'hi', embeds: [], components: [] });
  });

  it('reads back the entry of a button and tells the member what changed', () => {
    expect(entryIdOfButton('rr:abc')).toBe('abc');
    expect(entryIdOfButton(SELECT_CUSTOM_ID)).toBeNull();
    expect(entryIdOfButton('other:abc')).toBeNull();
    expect(describeTransition({ rolesToAdd: ['1'], rolesToRemove: ['2'], unchanged: null, claimed: ['a'], released: ['b'] })).toBe(
      'You received <@&1>. You no longer have <@&2>.',
    );
    expect(describeTransition({ rolesToAdd: [], rolesToRemove: [], unchanged: null, claimed: ['a'], released: [] })).toContain('already had its roles');
  });
});
