import { describe, expect, it } from 'vitest';
import { acceptsGzip, cacheableText, etagOf, matchesEtag } from '#shared/http/caching.js';

describe('Accept-Encoding', () => {
  it('accepts gzip named with a q above 0, or by * when gzip is not named', () => {
    for (const header of ['gzip', 'GZIP', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.5', '*', 'identity, *;q=0.1', ' deflate , gzip ;q=1']) {
      expect(acceptsGzip(header), header).toBe(true);
    }
  });

  it('refuses it when absent, refused by q=0, or only other codings are named', () => {
    for (const header of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip;q=0.000', '*;q=0', 'gzip;q=0, *', '*, gzip;q=0']) {
      expect(acceptsGzip(header), String(header)).toBe(false);
    }
  });
});

describe('entity tags', () => {
  it('differ for different texts and are quoted', () => {
    expect(etagOf('a')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(etagOf('a')).toBe(etagOf('a'));
    expect(etagOf('a')).not.toBe(etagOf('b'));
  });

  it('match If-None-Match by the tag, its weak form, in a list, or *', () => {
    const tag = etagOf('document');
    expect(matchesEtag(tag, tag)).toBe(true);
    expect(matchesEtag(`W/${tag}`, tag)).toBe(true);
    expect(matchesEtag(`"x", ${tag}`, tag)).toBe(true);
    expect(matchesEtag('*', tag)).toBe(true);
    expect(matchesEtag(undefined, tag)).toBe(false);
    expect(matchesEtag(etagOf('older'), tag)).toBe(false);
  });

  it('answer 304 without the text when named, the text otherwise, both with tag and lifetime', () => {
    const tag = etagOf('text');
    const held = cacheableText('text/plain', 'text', tag, tag, 60).response();
    expect(held).toMatchObject({ statusCode: 304, body: '', headers: { etag: tag, 'cache-control': 'public, max-age=60' } });
    const fresh = cacheableText('text/plain', 'text', tag, '"other"', 60).response();
    expect(fresh).toMatchObject({ statusCode: 200, body: 'text', headers: { etag: tag, 'cache-control': 'public, max-age=60' } });
  });
});
