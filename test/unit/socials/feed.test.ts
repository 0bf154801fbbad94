import { describe, expect, it } from 'vitest';
import { feedItemKey, oldestFirst, parseFeed } from '#functions/socials/feed/parse.js';
import { KINDS, normalizeFeedUrl, normalizeLink } from '#functions/socials/kinds.js';

const rss = `<?xml version="1.0"?>
<rss version="2.0"><channel><title>News &amp; more</title>
<item><guid>b</guid><title>Second &lt;two&gt;</title><link>https://example.org/2?utm_source=x#top</link><description>${'d'.repeat(600)}</description><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate></item>
<item><title>First</title><link>https://example.org/1</link><pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate></item>
<item><title>No link</title><description>plain</description></item>
</channel></rss>`;

const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title>
<entry><id>urn:2</id><title>Later</title><link rel="alternate" href="https://example.org/later"/><summary>s</summary><published>2026-11-24T10:00:00Z</published></entry>
<entry><id>urn:1</id><title>Earlier</title><link href="https://example.org/earlier"/><content>c</content><updated>2026-11-23T10:00:00Z</updated></entry>
</feed>`;

describe('feeds', () => {
  it('reads RSS 2.0 items with guid, link or a hash as their key, descriptions cut to 500 characters', () => {
    const { title, items } = parseFeed(rss);
    expect(title).toBe('News & more');
    expect(items.map((i) => i.key)).toEqual(['g:b', 'l:https://example.org/1', feedItemKey('', '', 'No link', 'plain')]);
    expect(items[0]!.title).toBe('Second <two>');
    expect(items[0]!.description).toHaveLength(500);
    expect(items[2]!.link).toBeNull();
  });

  it('reads Atom entries and orders items oldest first', () => {
    const { items } = parseFeed(atom);
    expect(items.map((i) => [i.key, i.link, i.description])).toEqual([
      ['g:urn:2', 'https://example.org/later', 's'],
      ['g:urn:1', 'https://example.org/earlier', 'c'],
    ]);
    expect(oldestFirst(items).map((i) => i.title)).toEqual(['Earlier', 'Later']);
  });

  it('refuses what is not a feed, and expands no declared entities', () => {
    expect(() => parseFeed('<html><body>hi</body></html>')).toThrow(/neither RSS 2.0/);
    expect(() => parseFeed('not xml at all <<<')).toThrow();
    const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><rss><channel><item><title>&b;</title><guid>x</guid></item></channel></rss>`;
    const parsed = parseFeed(bomb);
    expect(parsed.items[0]!.title.length).toBeLessThan(20);
  });
});

describe('identifiers', () => {
  it('compares forum, stream and video case-insensitively and feeds as normalised URLs', () => {
    expect(KINDS.forum.normalize('AskScience')).toBe('askscience');
    expect(KINDS.forum.normalize('has space')).toBeNull();
    expect(KINDS.forum.normalize('x'.repeat(22))).toBeNull();
    expect(KINDS.stream.normalize('ab')).toBeNull();
    expect(KINDS.video.normalize('@Some.Channel')).toBe('@some.channel');
    expect(KINDS.video.normalize('no-at')).toBeNull();
    expect(normalizeFeedUrl('HTTPS://Example.ORG/Feed.xml#frag')).toBe('https://example.org/Feed.xml');
    expect(normalizeFeedUrl('ftp://example.org/feed')).toBeNull();
    expect(normalizeFeedUrl(`https://e.org/${'x'.repeat(2048)}`)).toBeNull();
    expect(normalizeLink('https://e.org/a?utm_source=x&id=3&UTM_medium=y#f')).toBe('https://e.org/a?id=3');
  });
});
