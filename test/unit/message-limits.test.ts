/** The one check of a filled message against the platform's limits: at each limit, and one past it, in both modes. */
import { describe, expect, it } from 'vitest';
import type { Embed, MessageCreate } from '#shared/platform/types.js';
import { cutText, describeBreak, fitLimits, MESSAGE_LIMITS } from '#shared/templates/limits.js';
import { renderMessage, templateProblem } from '#shared/templates/index.js';
import { AppError } from '#shared/errors.js';

const text = (n: number) => 'x'.repeat(n);
const field = (name: string, value: string) => ({ name, value });

/** Each limited text: how to build a message whose text there has `n` characters, and where it is read back. */
const TEXTS: { path: string; limit: number; build(n: number): MessageCreate; read(body: MessageCreate): string }[] = [
  { path: 'content', limit: 2000, build: (n) => ({ content: text(n) }), read: (b) => b.content! },
  { path: 'embeds[0].title', limit: 256, build: (n) => ({ embeds: [{ title: text(n) }] }), read: (b) => b.embeds![0]!.title! },
  { path: 'embeds[0].description', limit: 4096, build: (n) => ({ embeds: [{ description: text(n) }] }), read: (b) => b.embeds![0]!.description! },
  {
    path: 'embeds[0].fields[0].name',
    limit: 256,
    build: (n) => ({ embeds: [{ fields: [field(text(n), 'v')] }] }),
    read: (b) => b.embeds![0]!.fields![0]!.name,
  },
  {
    path: 'embeds[0].fields[0].value',
    limit: 1024,
    build: (n) => ({ embeds: [{ fields: [field('n', text(n))] }] }),
    read: (b) => b.embeds![0]!.fields![0]!.value,
  },
  { path: 'embeds[0].footer.text', limit: 2048, build: (n) => ({ embeds: [{ footer: { text: text(n) } }] }), read: (b) => b.embeds![0]!.footer!.text },
  { path: 'embeds[0].author.name', limit: 256, build: (n) => ({ embeds: [{ author: { name: text(n) } }] }), read: (b) => b.embeds![0]!.author!.name },
];

/** The embed text the platform counts towards 6000. */
function embedText(body: MessageCreate): number {
  return (body.embeds ?? []).reduce(
    (sum, e: Embed) =>
      sum +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.fields ?? []).reduce((s, f) => s + f.name.length + f.value.length, 0),
    0,
  );
}

describe('message limits: each text at its limit and one past it', () => {
  for (const t of TEXTS) {
    it(`${t.path}: ${t.limit} characters pass unchanged; ${t.limit + 1} are named by check and cut to ${t.limit} ending in …`, () => {
      const at = t.build(t.limit);
      expect(fitLimits(at, 'check')).toBeNull();
      expect(fitLimits(at, 'cut')).toEqual(at);

      const over = t.build(t.limit + 1);
      expect(fitLimits(over, 'check')).toEqual({ path: t.path, unit: 'characters', length: t.limit + 1, limit: t.limit });
      const cut = t.read(fitLimits(over, 'cut'));
      expect(cut).toHaveLength(t.limit);
      expect(cut.endsWith('…')).toBe(true);
      expect(cut.slice(0, -1)).toBe(text(t.limit - 1));
      // The message given is left as it was.
      expect(t.read(over)).toHaveLength(t.limit + 1);
    });
  }

  it('content of 2150 characters reads as the 422 says it', () => {
    const broken = fitLimits({ content: text(2150) }, 'check')!;
    expect(describeBreak(broken, true)).toBe('content is 2150 characters once filled; at most 2000');
  });
});

describe('message limits: counts and the total', () => {
  const fields = (n: number) => Array.from({ length: n }, (_, i) => field(`n${i}`, 'v'));

  it('25 fields pass; a 26th is named, and cut drops it', () => {
    expect(fitLimits({ embeds: [{ fields: fields(25) }] }, 'check')).toBeNull();
    const over: MessageCreate = { embeds: [{ fields: fields(26) }] };
    expect(fitLimits(over, 'check')).toEqual({ path: 'embeds[0].fields', unit: 'fields', length: 26, limit: 25 });
    expect(fitLimits(over, 'cut').embeds![0]!.fields!.map((f) => f.name)).toEqual(fields(25).map((f) => f.name));
  });

  it('10 embeds pass; an 11th is named, and cut drops it', () => {
    const embeds = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `e${i}` }));
    expect(fitLimits({ embeds: embeds(10) }, 'check')).toBeNull();
    expect(fitLimits({ embeds: embeds(11) }, 'check')).toEqual({ path: 'embeds', unit: 'embeds', length: 11, limit: 10 });
    expect(fitLimits({ embeds: embeds(11) }, 'cut').embeds).toHaveLength(10);
  });

  // Every text within its own limit: 4096 + 1024 + 256 + 256 + 256 + 112 = 6000.
  const whole = (extra: number): MessageCreate => ({
    embeds: [
      {
        title: text(256),
        description: text(4096),
        fields: [field(text(256), text(1024))],
        author: { name: text(256) },
        footer: { text: text(112 + extra) },
      },
    ],
  });

  it('an embed text of 6000 characters passes; 6001 is named as the total, and cut brings it to 6000 by shortening the description first', () => {
    expect(embedText(whole(0))).toBe(MESSAGE_LIMITS.embedTotal);
    expect(fitLimits(whole(0), 'check')).toBeNull();
    expect(fitLimits(whole(1), 'check')).toEqual({ path: 'embeds', unit: 'embed text', length: 6001, limit: 6000 });
    const cut = fitLimits(whole(1), 'cut');
    expect(embedText(cut)).toBe(6000);
    expect(cut.embeds![0]!.description).toBe(`${text(4094)}…`);
    expect(cut.embeds![0]!.footer!.text).toBe(text(113));
    expect(fitLimits(cut, 'check')).toBeNull();
  });

  it('the total counts every embed of the message together', () => {
    const body: MessageCreate = { embeds: [{ description: text(4000) }, { description: text(2001) }] };
    expect(fitLimits(body, 'check')).toMatchObject({ path: 'embeds', unit: 'embed text', length: 6001 });
    const cut = fitLimits(body, 'cut');
    expect(embedText(cut)).toBe(6000);
    // The last embed gives way first.
    expect(cut.embeds![0]!.description).toBe(text(4000));
  });

  it('texts far past every limit at once still come out within all of them', () => {
    const body: MessageCreate = {
      content: text(5000),
      embeds: Array.from({ length: 12 }, () => ({
        title: text(900),
        description: text(9000),
        fields: fields(30).map(() => field(text(900), text(3000))),
        footer: { text: text(5000) },
        author: { name: text(900) },
      })),
    };
    const cut = fitLimits(body, 'cut');
    expect(fitLimits(cut, 'check')).toBeNull();
    expect(cut.content!.endsWith('…')).toBe(true);
  });
});

describe('message limits: cutting', () => {
  it('never splits a surrogate pair', () => {
    const emoji = '😀'; // two UTF-16 units
    expect(cutText(`${text(1997)}${emoji}${text(10)}`, 2000)).toBe(`${text(1997)}${emoji}…`);
    // The cut would fall between the emoji's halves: the whole emoji goes.
    expect(cutText(`${text(1998)}${emoji}${text(10)}`, 2000)).toBe(`${text(1998)}…`);
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('abcd', 1)).toBe('…');
  });

  it('keeps what is not text (components, mentions, nonce) as it was', () => {
    const body: MessageCreate = { content: text(2001), allowed_mentions: { parse: [] }, nonce: 'n', components: [] };
    expect(fitLimits(body, 'cut')).toMatchObject({ allowed_mentions: { parse: [] }, nonce: 'n', components: [] });
  });
});

describe('filled templates', () => {
  const name = (n: number) => ({ user_name: text(n) });

  it('a message posted on an event is cut once filled, ending in …', () => {
    expect(renderMessage('Hi <user_name>', false, name(1997)).content).toBe(`Hi ${text(1997)}`);
    const over = renderMessage('Hi <user_name>', false, name(1998)).content!;
    expect(over).toHaveLength(2000);
    expect(over.endsWith('…')).toBe(true);
    const embed = renderMessage('{"title":"<user_name>","footer":{"text":"<user_name>"}}', true, name(3000)).embeds![0]!;
    expect(embed.title).toHaveLength(256);
    expect(embed.footer!.text).toHaveLength(2048);
  });

  it('a message sent on purpose is refused once filled past a limit, with a 422 naming it', () => {
    expect(renderMessage('Hi <user_name>', false, name(1997), undefined, 'refuse', 'tag').content).toHaveLength(2000);
    let error: unknown;
    try {
      renderMessage('Hi <user_name>', false, name(2147), undefined, 'refuse', "tag's content");
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).reason).toContain('content is 2150 characters once filled; at most 2000');
  });

  it('a stored embed template is checked against the same limits', () => {
    expect(templateProblem(JSON.stringify({ title: 't', footer: { text: text(2048) } }), true)).toBeNull();
    expect(templateProblem(JSON.stringify({ title: 't', footer: { text: text(2049) } }), true)).toBe(
      "Field 'content' holds an embed over the platform's limits: footer.text is 2049 characters; at most 2048.",
    );
    expect(templateProblem(text(2001), false)).toContain('at most 2000');
  });
});
