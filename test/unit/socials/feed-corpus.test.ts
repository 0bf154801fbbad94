/**
 * The feed corpus (test/fixtures/feeds): every case's first item, or every
 * item of a real-world-shaped file, read as a mature parser reads it. Prints
 * the share read right and which cases were not; the target is 98%.
 */
import { describe, expect, it } from 'vitest';
import { parseFeed } from '#functions/socials/feed/parse.js';
import { type CorpusCase, corpus } from '#test/fixtures/feeds/corpus.js';

/** What the reader made of a case, in the shape of its expectation. */
function read(c: CorpusCase): unknown {
  let items;
  try {
    items = parseFeed(c.body, { contentType: c.contentType ?? null, url: c.url }).items;
  } catch (error) {
    return c.expect === 'error' && error instanceof Error && /^it /.test(error.message) ? 'error' : `threw: ${String(error)}`;
  }
  if (c.expect === 'error') return 'parsed';
  const got = items[c.index];
  if (!got) return 'no such item';
  const wanted = c.expect;
  return {
    title: got.title,
    link: got.link,
    id: got.id,
    date: got.published === null ? null : new Date(got.published).toISOString(),
    ...('author' in wanted ? { author: got.author } : {}),
    ...('description' in wanted ? { description: got.description } : {}),
  };
}

describe('feed corpus', () => {
  const cases = corpus();

  it('holds at least 200 cases, each stating title, link, id and date (or a refusal)', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    for (const c of cases) if (c.expect !== 'error') expect(Object.keys(c.expect)).toEqual(expect.arrayContaining(['title', 'link', 'id', 'date']));
  });

  it('is read right in at least 98% of cases', () => {
    const wrong = cases.filter((c) => JSON.stringify(read(c)) !== JSON.stringify(c.expect));
    const share = (cases.length - wrong.length) / cases.length;
    console.log(`feed corpus: ${cases.length - wrong.length} of ${cases.length} cases read right (${(share * 100).toFixed(1)}%)`);
    for (const c of wrong) console.log(`  wrong: ${c.name}\n    expected ${JSON.stringify(c.expect)}\n    read     ${JSON.stringify(read(c))}`);
    expect(share).toBeGreaterThanOrEqual(0.98);
  });
});
