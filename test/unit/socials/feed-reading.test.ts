import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeedDate } from '#functions/socials/feed/dates.js';
import { decodeFeedBytes } from '#functions/socials/feed/encoding.js';
import { htmlToText } from '#functions/socials/feed/text.js';
import { feedItemKey, parseFeed } from '#functions/socials/feed/parse.js';
import { SourceError, feedItems } from '#functions/socials/reach/sources.js';

const rssOf = (item: string, attrs = '') => `<rss version="2.0"${attrs}><channel><title>C</title><item>${item}</item></channel></rss>`;
const atomOf = (entry: string, attrs = '') => `<feed xmlns="http://www.w3.org/2005/Atom"${attrs}><title>F</title><entry>${entry}</entry></feed>`;
const first = (xml: string | Uint8Array, origin = {}) => parseFeed(xml, origin).items[0]!;

describe('character references', () => {
  it('decodes the whole HTML named set, undeclared, in text and attributes', () => {
    expect(first(rssOf('<title>It&rsquo;s&nbsp;here&hellip; &aacute;&Omega;&clubs;&zwnj;!</title>')).title).toBe(
      'It\u2019s\u00a0here\u2026 \u00e1\u03a9\u2663\u200c!',
    );
    expect(first(atomOf('<title>t</title><link href="https://e.org/?a=1&amp;b=&eacute;"/>')).link).toBe('https://e.org/?a=1&b=\u00e9');
  });

  it('decodes exactly once: escaped HTML once more in html constructs, never in plain text', () => {
    expect(first(rssOf('<title>Q&amp;amp;A</title>')).title).toBe('Q&A');
    expect(first(atomOf('<title type="html">Q&amp;amp;A</title>')).title).toBe('Q&A');
    expect(first(atomOf('<title type="text">Q&amp;amp;A</title>')).title).toBe('Q&amp;A');
    expect(first(atomOf('<title type="html">&lt;b&gt;Tags&lt;/b&gt; go</title>')).title).toBe('Tags go');
  });

  it('keeps CDATA as written: not entity-decoded in plain text, read as HTML where the construct is HTML', () => {
    expect(first(atomOf('<title><![CDATA[Fish &amp; Chips]]></title>')).title).toBe('Fish &amp; Chips');
    expect(first(rssOf('<title>t</title><description><![CDATA[Fish &amp; <i>Chips</i>]]></description>')).description).toBe('Fish & Chips');
    expect(first(rssOf('<title>t</title><link><![CDATA[https://e.org/?a=1&amp;b=2]]></link>')).link).toBe('https://e.org/?a=1&amp;b=2');
  });
});

describe('text constructs as plain text', () => {
  it('reads XHTML titles and summaries as their text, not as an object', () => {
    const item = first(
      atomOf(
        '<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <em>XHTML</em> title</div></title><summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>One</p><p>Two</p></div></summary>',
      ),
    );
    expect(item.title).toBe('An XHTML title');
    expect(item.description).toBe('One\n\nTwo');
  });

  it('reads a title with child markup whole', () => {
    expect(first(rssOf('<title>Start <b>middle</b> end</title>')).title).toBe('Start middle end');
  });

  it('drops tags, breaks lines at blocks and <br>, collapses white space, hides scripts and styles', () => {
    expect(
      htmlToText('<div>  Hello \n\n  <b>world</b></div><p>Para<br>next&nbsp;line</p><script>x()</script><style>p{}</style><ul><li>a</li><li>b</li></ul>'),
    ).toBe('Hello world\n\nPara\nnext\u00a0line\n\n• a\n• b');
    expect(htmlToText('<p>Para</p>\n<p>Two</p>', true)).toBe('Para Two');
    expect(htmlToText('a < b and c > d')).toBe('a < b and c > d');
    expect(htmlToText('bell\u0007 and &#27;escape')).toBe('bell and escape');
  });

  it('takes RSS descriptions as HTML, and Atom summary before content', () => {
    expect(first(rssOf('<title>t</title><description>&lt;p&gt;Para&lt;/p&gt;</description>')).description).toBe('Para');
    expect(first(atomOf('<title>t</title><summary>Short</summary><content type="html">&lt;p&gt;Long&lt;/p&gt;</content>')).description).toBe('Short');
    expect(first(atomOf('<title>t</title><content type="html">&lt;p&gt;Long&lt;/p&gt;</content>')).description).toBe('Long');
  });

  it('reads undeclared prefixes as themselves, whatever they are called', () => {
    const item = first(
      rssOf('<title>t</title><constructor:x>1</constructor:x><toString:date>2026-11-24T12:00:00Z</toString:date><dc:date>2026-11-24T12:00:00Z</dc:date>'),
    );
    expect(item.published).toBe(Date.parse('2026-11-24T12:00:00Z'));
  });

  it('names the authors', () => {
    expect(first(rssOf('<title>t</title><author>a@e.org (Ann)</author>')).author).toBe('Ann');
    expect(first(rssOf('<title>t</title><dc:creator>Bo</dc:creator>', ' xmlns:dc="http://purl.org/dc/elements/1.1/"')).author).toBe('Bo');
    expect(first(atomOf('<title>t</title><author><name>Cy</name></author><author><name>Di</name></author>')).author).toBe('Cy, Di');
    expect(first(atomOf('<title>t</title>')).author).toBeNull();
  });
});

describe('encodings', () => {
  const feed = (declared: string | null, title: string) =>
    `${declared ? `<?xml version="1.0" encoding="${declared}"?>` : ''}${rssOf(`<title>${title}</title>`)}`;
  const bytes = (text: string, encoding: string, bom = false) => new Uint8Array(iconv.encode(text, encoding, { addBOM: bom }));

  it('takes the BOM first, then the Content-Type charset, then the XML declaration, then UTF-8', () => {
    const title = '\u041f\u0440\u0438\u0432\u0435\u0442';
    expect(decodeFeedBytes(bytes(feed('windows-1251', title), 'utf-8', true), 'text/xml; charset=windows-1251').encoding).toBe('utf-8');
    expect(decodeFeedBytes(bytes(feed('iso-8859-5', title), 'windows-1251'), 'text/xml; charset=windows-1251').encoding).toBe('windows-1251');
    expect(decodeFeedBytes(bytes(feed('windows-1251', title), 'windows-1251'), 'application/rss+xml').encoding).toBe('windows-1251');
    expect(decodeFeedBytes(bytes(feed(null, title), 'utf-8'), null).encoding).toBe('utf-8');
    expect(first(bytes(feed('koi8-r', title), 'koi8-r')).title).toBe(title);
  });

  it('reads UTF-16 and UTF-32 by their BOM, and UTF-16 without one by its zero bytes', () => {
    expect(first(bytes(feed('UTF-16', 'w\u00e9de'), 'utf-16le', true)).title).toBe('w\u00e9de');
    expect(first(bytes(feed('UTF-16', 'w\u00e9de'), 'utf-16be', true)).title).toBe('w\u00e9de');
    expect(first(bytes(feed('UTF-16', 'no bom \u00e9'), 'utf-16le')).title).toBe('no bom \u00e9');
    expect(decodeFeedBytes(new Uint8Array([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0, 0x61, 0, 0, 0, 0x2f, 0, 0, 0, 0x3e, 0, 0, 0]))).toEqual({
      text: '<a/>',
      encoding: 'utf-32le',
    });
  });

  it('gives way when the bytes break the chosen encoding, and reads UTF-8 under a Latin-1 server default', () => {
    expect(first(bytes(feed('utf-8', 'caf\u00e9'), 'windows-1252')).title).toBe('caf\u00e9');
    expect(first(bytes(feed('utf-8', 'caf\u00e9'), 'utf-8'), { contentType: 'text/xml; charset=iso-8859-1' }).title).toBe('caf\u00e9');
    expect(first(bytes(feed(null, 'Se\u00f1or'), 'latin1'), { contentType: 'text/xml; charset=iso-8859-1' }).title).toBe('Se\u00f1or');
    expect(first(bytes(feed('x-no-such-encoding', 'plain'), 'utf-8')).title).toBe('plain');
  });
});

describe('links and ids', () => {
  const origin = { url: 'https://site.example/blog/feed.xml' };

  it('resolves against the feed URL and nested xml:base, on elements and on the link itself', () => {
    expect(first(rssOf('<title>t</title><link>post/1</link>'), origin).link).toBe('https://site.example/blog/post/1');
    const nested = atomOf('<title>t</title><id>/p/2</id><link href="2.html"/>', ' xml:base="/root/"').replace('<entry>', '<entry xml:base="sub/">');
    expect(first(nested, origin)).toMatchObject({ link: 'https://site.example/root/sub/2.html', id: 'https://site.example/p/2' });
    expect(first(atomOf('<title>t</title><link xml:base="https://x.example/d/" href="e"/>'), origin).link).toBe('https://x.example/d/e');
    expect(first(rssOf('<title>t</title><link>/no-base</link>')).link).toBe('/no-base');
  });

  it('uses a permalink guid as the link, and keys on it', () => {
    const item = first(rssOf('<title>t</title><guid>https://e.org/g</guid>'));
    expect(item).toMatchObject({ link: 'https://e.org/g', id: 'https://e.org/g', key: 'g:https://e.org/g' });
    expect(first(rssOf('<title>t</title><guid isPermaLink="false">https://e.org/g</guid>')).link).toBeNull();
    expect(first(rssOf('<title>t</title><guid>42</guid>')).link).toBeNull();
    expect(first(rssOf('<title>t</title><guid isPermaLink="true">/g/3</guid>'), origin).link).toBe('https://site.example/g/3');
  });

  it('prefers an HTML alternate link in Atom, and takes none from self, edit or enclosure links', () => {
    const links =
      '<link rel="self" href="https://e.org/self"/><link rel="alternate" type="application/json" href="https://e.org/j"/><link rel="alternate" type="text/html" href="https://e.org/h"/>';
    expect(first(atomOf(`<title>t</title>${links}`)).link).toBe('https://e.org/h');
    expect(first(atomOf('<title>t</title><link rel="enclosure" href="https://e.org/a.mp3"/>')).link).toBeNull();
  });

  it('keys an item without id or link on a hash of its text', () => {
    expect(first(rssOf('<title>Only</title><description>text</description>')).key).toBe(feedItemKey('', '', 'Only', 'text'));
  });
});

describe('dates', () => {
  const at = (iso: string) => Date.parse(iso);

  it('reads RFC 822 dates with every named zone, military letters and numeric offsets', () => {
    const zones: [string, number][] = [
      ['UT', 0],
      ['GMT', 0],
      ['Z', 0],
      ['EST', -5],
      ['EDT', -4],
      ['CST', -6],
      ['CDT', -5],
      ['MST', -7],
      ['MDT', -6],
      ['PST', -8],
      ['PDT', -7],
      ['A', -1],
      ['B', -2],
      ['I', -9],
      ['K', -10],
      ['M', -12],
      ['N', 1],
      ['O', 2],
      ['Y', 12],
      ['+0000', 0],
      ['-0330', -3.5],
      ['+0545', 5.75],
    ];
    for (const [zone, hours] of zones) expect(parseFeedDate(`Tue, 24 Nov 2026 12:00:00 ${zone}`), zone).toBe(at('2026-11-24T12:00:00Z') - hours * 3600_000);
    expect(parseFeedDate('24 Nov 26 12:00 GMT')).toBe(at('2026-11-24T12:00:00Z'));
    expect(parseFeedDate('Tue, 24 Nov 2026 12:00:00 XYZ')).toBeNull();
  });

  it('reads ISO 8601 variants, without ever using the host time zone', () => {
    for (const [written, iso] of [
      ['2026-11-24T12:00:00Z', '2026-11-24T12:00:00Z'],
      ['2026-11-24T14:00:00+02:00', '2026-11-24T12:00:00Z'],
      ['2026-11-24T07:00:00-0500', '2026-11-24T12:00:00Z'],
      ['2026-11-24T12:00:00.250Z', '2026-11-24T12:00:00.250Z'],
      ['2026-11-24 12:00:00', '2026-11-24T12:00:00Z'],
      ['20261124T120000Z', '2026-11-24T12:00:00Z'],
      ['2026-11-24', '2026-11-24T00:00:00Z'],
    ])
      expect(parseFeedDate(written), written).toBe(at(iso!));
    expect(parseFeedDate('2026-02-30')).toBeNull();
  });

  it('takes dc:date, dcterms and Atom 0.3 dates where the usual ones are missing', () => {
    const DC = ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"';
    expect(first(rssOf('<title>t</title><dc:date>2026-11-24T12:00:00Z</dc:date>', DC)).published).toBe(at('2026-11-24T12:00:00Z'));
    expect(first(rssOf('<title>t</title><dcterms:modified>2026-11-24T12:00:00Z</dcterms:modified>', DC)).published).toBe(at('2026-11-24T12:00:00Z'));
    const old = (entry: string) => `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>o</title><entry><title>t</title>${entry}</entry></feed>`;
    expect(first(old('<issued>2026-11-24T12:00:00Z</issued><modified>2027-01-01T00:00:00Z</modified>')).published).toBe(at('2026-11-24T12:00:00Z'));
    expect(first(old('<modified>2026-11-24T12:00:00Z</modified>')).published).toBe(at('2026-11-24T12:00:00Z'));
  });
});

describe('shapes of older and looser feeds', () => {
  const old = (entry: string) => `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>o</title><entry>${entry}</entry></feed>`;
  const origin = { url: 'https://site.example/blog/feed.xml' };

  it('decodes Atom 0.3 base64 titles whatever the case of mode, line-wrapped, as HTML when typed so, Latin-1 when not UTF-8', () => {
    const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
    expect(first(old(`<title mode="Base64">${b64('Plain words')}</title>`)).title).toBe('Plain words');
    const wrapped = b64('<b>Bold</b> &amp; more').replace(/(.{8})/g, '$1\n  ');
    expect(first(old(`<title type="text/html" mode="base64">\n  ${wrapped}\n</title>`)).title).toBe('Bold & more');
    expect(first(old(`<title mode="base64">${b64(Buffer.from([0x63, 0x61, 0x66, 0xe9]))}</title>`)).title).toBe('caf\u00e9');
  });

  it('reads the Middle European zones MET, MEST, MEZ and MESZ', () => {
    for (const [zone, hours] of [
      ['MET', 1],
      ['MEST', 2],
      ['MEZ', 1],
      ['MESZ', 2],
    ] as const) {
      expect(parseFeedDate(`Tue, 24 Nov 2026 12:00:00 ${zone}`), zone).toBe(Date.parse('2026-11-24T12:00:00Z') - hours * 3_600_000);
    }
  });

  it('takes an Atom 0.3 link whose URL is its text, resolved against the feed URL, and still prefers an href', () => {
    expect(first(old('<title>t</title><link>https://e.org/text-link</link>')).link).toBe('https://e.org/text-link');
    expect(first(old('<title>t</title><link rel="alternate" type="text/html">posts/5</link>'), origin).link).toBe('https://site.example/blog/posts/5');
    expect(first(old('<title>t</title><link rel="self">https://e.org/self</link>')).link).toBeNull();
    expect(first(old('<title>t</title><link>https://e.org/text</link><link href="https://e.org/href"/>')).link).toBe('https://e.org/text');
  });

  it('titles an item that has none with its media:title, on the item, in media:group or in media:content', () => {
    const media = ' xmlns:media="http://search.yahoo.com/mrss/"';
    expect(first(rssOf('<media:title>On the item</media:title><link>https://e.org/1</link>', media)).title).toBe('On the item');
    expect(first(rssOf('<media:group><media:title>In a group</media:title></media:group>', media)).title).toBe('In a group');
    expect(first(rssOf('<media:content url="https://e.org/v.mp4"><media:title>In content</media:title></media:content>', media)).title).toBe('In content');
    expect(first(atomOf('<media:group><media:title>Entry media</media:title></media:group>', media)).title).toBe('Entry media');
    expect(first(rssOf('<title>Own</title><media:title>Media</media:title>', media)).title).toBe('Own');
  });

  it('reads RSS items written directly under <rss>, and refuses only RSS with neither a channel nor an item', () => {
    const { items } = parseFeed('<rss version="2.0"><item><title>One</title></item><item><title>Two</title></item></rss>');
    expect(items.map((i) => i.title)).toEqual(['One', 'Two']);
    expect(parseFeed('<rss version="2.0"><channel><title>Empty</title></channel></rss>').items).toEqual([]);
    expect(() => parseFeed('<rss version="2.0"><title>nothing</title></rss>')).toThrow(/^it is RSS with neither a <channel> nor any <item>/);
  });

  it('resolves a relative id against the document URL: paths, queries, fragments and page names; tokens stay', () => {
    const idOf = (id: string) => first(atomOf(`<title>t</title><id>${id}</id>`), origin).id;
    expect(idOf('/relative/link')).toBe('https://site.example/relative/link');
    expect(idOf('?p=7')).toBe('https://site.example/blog/feed.xml?p=7');
    expect(idOf('#entry-8')).toBe('https://site.example/blog/feed.xml#entry-8');
    expect(idOf('entry-9.html')).toBe('https://site.example/blog/entry-9.html');
    expect(idOf('t3_1abcde')).toBe('t3_1abcde');
    expect(idOf('tag:site.example,2026:9')).toBe('tag:site.example,2026:9');
    expect(first(old('<title>t</title><id>../up/10</id>'), origin).id).toBe('https://site.example/up/10');
    expect(first(rssOf('<title>t</title><guid>?p=11</guid>'), origin)).toMatchObject({
      id: 'https://site.example/blog/feed.xml?p=11',
      link: 'https://site.example/blog/feed.xml?p=11',
    });
  });
});

describe('feeds that are not well-formed', () => {
  const valid = `<?xml version="1.0"?>${rssOf('<title>Fine &amp; dandy</title><link>https://e.org/1</link><description><![CDATA[<p>x</p>]]></description><pubDate>Tue, 24 Nov 2026 12:00:00 GMT</pubDate>')}`;

  it('fails with a sentence naming where, never with anything else, however the feed is cut or broken', () => {
    expect(() => parseFeed(valid.replace('&amp;', '&'))).toThrow(/^it is not well-formed XML \(line 1, column \d+: /);
    for (let end = 0; end < valid.length; end += 3) {
      let outcome: unknown = null;
      try {
        parseFeed(valid.slice(0, end));
      } catch (error) {
        outcome = error;
      }
      expect(outcome, `cut at ${end}`).toBeInstanceOf(Error);
      expect((outcome as Error).message, `cut at ${end}`).toMatch(/^it /);
    }
  });
});

describe('fetching a feed (loopback server)', () => {
  let server: Server;
  let base: string;
  const cyrillic = '\u041d\u043e\u0432\u043e\u0441\u0442\u0438';

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(301, { location: '/news/feed.xml' }).end();
      } else if (req.url === '/news/feed.xml') {
        res.writeHead(200, { 'content-type': 'application/rss+xml; charset=windows-1251' });
        res.end(iconv.encode(rssOf(`<title>${cyrillic}</title><link>article/7</link>`), 'windows-1251'));
      } else {
        res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<rss><channel><item><title>broken</channel></rss>');
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    // A named exception to the address rules for sources (behaviour §13), which refuse loopback otherwise.
    process.env.SOURCE_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  });
  afterAll(async () => {
    delete process.env.SOURCE_ALLOWED_HOSTS;
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('hands the parser the bytes, the Content-Type charset and the URL it ended at', async () => {
    const fetched = await feedItems(`${base}/moved`);
    expect(fetched!.items[0]).toMatchObject({ title: cyrillic, link: `${base}/news/article/7` });
  });

  it('reports an ill-formed feed as the source failing, with the reason class, the parser words kept in its cause', async () => {
    const refused = await feedItems(`${base}/broken`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SourceError);
    // The reason class only: what the parser found stays in the logs, so a 422 cannot tell a caller what a host answered.
    expect((refused as Error).message).toMatch(/is not a feed \(not well-formed RSS 2\.0 or Atom\)$/);
    expect(String(((refused as Error).cause as Error | undefined)?.message)).toMatch(/not well-formed XML \(line 1, column \d+/);
  });
});
