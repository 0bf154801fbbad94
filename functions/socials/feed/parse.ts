/**
 * RSS (2.0, 0.9x and 1.0) and Atom (1.0 and 0.3) read as a mature feed
 * parser reads them: the bytes decoded as the feed says (encoding.ts),
 * namespaces and `xml:base` honoured (xml.ts), text constructs turned
 * into plain text (text.ts), dates in every form feeds write
 * (dates.ts). What is not well-formed XML, or not a feed, is an error
 * with a sentence, which a poll reports for that source.
 */
import { createHash } from 'node:crypto';
import { parseFeedDate } from './dates.js';
import { decodeFeedBytes } from './encoding.js';
import { escapeHtml, htmlToText, looksLikeHtml, tidy } from './text.js';
import { type XmlElement, attrOf, elementsOf, markupOf, nsKey, parseXml, resolveUri, textOf } from './xml.js';

/** One item of a source, whatever its kind. */
export interface SourceItem {
  /** Identifies the item within its source (behaviour §7). */
  key: string;
  title: string;
  /** Description, cut to 500 characters (rss). */
  description: string | null;
  link: string | null;
  /** Epoch ms, when the source says; used to order items oldest first. */
  published: number | null;
}

/** An item of a feed: a source item with the id and author the feed gives. */
export interface FeedItem extends SourceItem {
  /** The guid or Atom id (resolved against `xml:base` when it is a relative path), null when the feed gives none. */
  id: string | null;
  /** The author's name (names, comma-separated), null when the feed gives none. */
  author: string | null;
}

/** Where a feed's bytes came from: the `Content-Type` header (its charset) and the URL (the base of relative links). */
export interface FeedOrigin {
  contentType?: string | null;
  url?: string | null;
}

const hashKey = (title: string, description: string) => `h:${createHash('sha256').update(`${title}\u0000${description}`).digest('hex').slice(0, 32)}`;

/** The key of a feed item: guid or Atom id, else its link, else a hash of title and description (behaviour §7). */
export function feedItemKey(guid: string, link: string, title: string, description: string): string {
  if (guid) return `g:${guid}`;
  if (link) return `l:${link}`;
  return hashKey(title, description);
}

const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

const NS = {
  atom: nsKey('http://www.w3.org/2005/Atom'),
  atom03: nsKey('http://purl.org/atom/ns#'),
  dc: nsKey('http://purl.org/dc/elements/1.1/'),
  dcterms: nsKey('http://purl.org/dc/terms/'),
  content: nsKey('http://purl.org/rss/1.0/modules/content/'),
  rdf: nsKey('http://www.w3.org/1999/02/22-rdf-syntax-ns#'),
  xhtml: nsKey('http://www.w3.org/1999/xhtml'),
  media: nsKey('http://search.yahoo.com/mrss/'),
};
/** Namespaces RSS elements come in: none (2.0, 0.9x), RSS 1.0, RSS 0.90, and those some 2.0 feeds declare by mistake. */
const RSS = new Set([
  '',
  'http://purl.org/rss/1.0',
  'http://my.netscape.com/rdf/simple/0.9',
  'http://backend.userland.com/rss2',
  'http://blogs.law.harvard.edu/tech/rss',
]);
/** Atom's namespaces; a `<feed>` that declares none is read as Atom too. */
const ATOM = new Set([NS.atom, NS.atom03, '']);
const ATOM_ONLY = new Set([NS.atom, NS.atom03]);
const only = (ns: string) => new Set([ns]);

/** The first child element in one of the namespaces with one of the names, the names in order of preference. */
function child(el: XmlElement | undefined, spaces: Set<string>, ...names: string[]): XmlElement | undefined {
  if (!el) return undefined;
  const kids = elementsOf(el);
  for (const name of names) {
    const found = kids.find((k) => k.name === name && spaces.has(k.ns));
    if (found) return found;
  }
  return undefined;
}
const childrenNamed = (el: XmlElement | undefined, spaces: Set<string>, name: string) =>
  el ? elementsOf(el).filter((k) => k.name === name && spaces.has(k.ns)) : [];
const textIn = (el: XmlElement | undefined) => (el ? textOf(el).trim() : '');

type Format = 'text' | 'html' | 'xhtml';

/** Plain text of a text construct in the format given; titles on one line. */
function plain(el: XmlElement | undefined, format: Format, singleLine: boolean): string {
  if (!el) return '';
  if (format === 'xhtml') {
    const div = child(el, only(NS.xhtml), 'div');
    return htmlToText(markupOf(div ? div.children : el.children, escapeHtml), singleLine);
  }
  if (format === 'html') return htmlToText(markupOf(el.children), singleLine);
  return tidy(textOf(el), singleLine);
}

/** Atom 0.3's `mode` of a content construct (xml, escaped, base64), as feeds write it in any case. */
const modeOf = (el: XmlElement) => (attrOf(el, 'mode') ?? '').trim().toLowerCase();

/** The format of an Atom text construct: `type` (1.0 names or MIME types), and Atom 0.3's `mode`. */
function atomFormat(el: XmlElement | undefined): Format {
  if (!el) return 'text';
  const type = (attrOf(el, 'type') ?? 'text').trim().toLowerCase();
  if (type === 'xhtml' || type === 'application/xhtml+xml') return modeOf(el) === 'escaped' ? 'html' : 'xhtml';
  if (type === 'html' || type === 'text/html') return 'html';
  return 'text';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Base64 text (line-wrapped or not) as the text it encodes: UTF-8, else Latin-1, which any bytes are. */
function fromBase64(encoded: string): string {
  const bytes = Buffer.from(encoded.replace(/\s+/g, ''), 'base64');
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** An Atom text construct as plain text; Atom 0.3's base64 mode decoded first (an XHTML one is markup once decoded). */
function atomText(el: XmlElement | undefined, singleLine: boolean): string {
  if (el && modeOf(el) === 'base64') {
    const decoded = fromBase64(textOf(el));
    return atomFormat(el) === 'text' ? tidy(decoded, singleLine) : htmlToText(decoded, singleLine);
  }
  return plain(el, atomFormat(el), singleLine);
}

/**
 * Media RSS's title of an item (YouTube, podcasts, image hosts): on the
 * item, else in its `media:group` or first `media:content`; read where the
 * item has no title of its own.
 */
function mediaTitle(el: XmlElement): string {
  const media = only(NS.media);
  const title = child(el, media, 'title') ?? child(child(el, media, 'group'), media, 'title') ?? child(child(el, media, 'content'), media, 'title');
  return title ? plain(title, attrOf(title, 'type')?.trim().toLowerCase() === 'html' ? 'html' : 'text', true) : '';
}

/** RSS says nothing of a title's format: HTML when it holds markup or references that survived XML, else plain text. */
function rssTitle(el: XmlElement | undefined): string {
  if (!el) return '';
  const html = elementsOf(el).length > 0 || looksLikeHtml(textOf(el));
  return plain(el, html ? 'html' : 'text', true);
}

/**
 * Whether an id without a scheme reads as a relative URL reference (a path,
 * a query, a fragment, a page's file name) rather than a token such as
 * `t3_1abcde` or `12345`, which stays as written.
 */
const looksRelative = (id: string) =>
  !/^[a-z][a-z0-9+.-]*:/i.test(id) && (/^[./?#]/.test(id) || id.includes('/') || /\.(?:s?html?|php|aspx?|jsp|cgi)(?:[?#]|$)/i.test(id));

/** An id (a permalink guid, an Atom id) resolved against the base in scope (`xml:base`, else the document's URL) when it is a relative reference. */
function idOf(el: XmlElement | undefined): string {
  const id = textIn(el);
  return el && looksRelative(id) ? resolveUri(id, el.base) : id;
}

const isWebUrl = (value: string) => /^https?:\/\/[^/?#\s]+/i.test(value);

/** The first date found, in order of preference. */
function dateOf(...candidates: (XmlElement | undefined)[]): number | null {
  for (const el of candidates) {
    const parsed = parseFeedDate(textIn(el));
    if (parsed !== null) return parsed;
  }
  return null;
}

/** An RSS author: `jo@example.org (Jo Doe)` is Jo Doe; a bare address stays. */
function rssAuthor(value: string): string {
  const named = /^[^\s@()]+@[^\s()]+\s*\((.+)\)$/.exec(value);
  return (named?.[1] ?? value).trim();
}

/** The names of Atom `author` elements, comma-separated. */
function atomAuthors(el: XmlElement | undefined, spaces: Set<string>): string {
  return childrenNamed(el, spaces, 'author')
    .map((author) => tidy(textIn(child(author, spaces, 'name')), true) || tidy(textOf(author), true))
    .filter(Boolean)
    .join(', ');
}

/** Where a link element points: its `href`, else (early Atom 0.3 feeds) the URL written as its text. */
const linkTarget = (l: XmlElement) => attrOf(l, 'href')?.trim() || (elementsOf(l).length === 0 ? textIn(l) : '');

/** The link an Atom element points readers to: the first `alternate` link (`rel` absent means alternate) of an HTML type, else the first alternate. */
function atomLink(el: XmlElement, spaces: Set<string>): string {
  const alternates = childrenNamed(el, spaces, 'link').filter((l) => (attrOf(l, 'rel') ?? 'alternate').trim().toLowerCase() === 'alternate' && linkTarget(l));
  const html = alternates.find((l) => /^(text\/html|application\/xhtml\+xml|html)?$/i.test((attrOf(l, 'type') ?? '').trim())) ?? alternates[0];
  return html ? resolveUri(linkTarget(html), html.base) : '';
}

function item(fields: { id: string; link: string; title: string; description: string; published: number | null; author: string }): FeedItem {
  const { id, link, title, description, published, author } = fields;
  return {
    key: feedItemKey(id, link, title, description),
    id: id || null,
    title,
    description: cut(description, 500) || null,
    link: link || null,
    published,
    author: author || null,
  };
}

function rssItem(el: XmlElement, channelAuthor: string): FeedItem {
  const guid = child(el, RSS, 'guid');
  const permalink = guid !== undefined && (attrOf(guid, 'isPermaLink') ?? 'true').trim().toLowerCase() !== 'false';
  const about = attrOf(el, 'about');
  const id = guid ? (permalink ? idOf(guid) : textIn(guid)) : about ? resolveUri(about.trim(), el.base) : '';
  const linkEl = child(el, RSS, 'link');
  let link = linkEl ? resolveUri(textIn(linkEl), linkEl.base) : '';
  if (!link) link = atomLink(el, ATOM_ONLY);
  if (!link && permalink && isWebUrl(id)) link = id;
  const description = child(el, RSS, 'description');
  const encoded = child(el, only(NS.content), 'encoded');
  const published = dateOf(
    child(el, RSS, 'pubdate'),
    child(el, only(NS.dc), 'date'),
    child(el, only(NS.dcterms), 'issued', 'created', 'date', 'available'),
    child(el, ATOM_ONLY, 'published', 'issued', 'created'),
    child(el, ATOM_ONLY, 'updated', 'modified'),
    child(el, only(NS.dcterms), 'modified'),
  );
  const author =
    rssAuthor(tidy(textIn(child(el, RSS, 'author')), true)) ||
    tidy(textIn(child(el, only(NS.dc), 'creator')), true) ||
    atomAuthors(el, ATOM_ONLY) ||
    channelAuthor;
  return item({
    id,
    link,
    title: rssTitle(child(el, RSS, 'title')) || rssTitle(child(el, only(NS.dc), 'title')) || mediaTitle(el),
    description: description && textIn(description) ? plain(description, 'html', false) : plain(encoded, 'html', false),
    published,
    author,
  });
}

function atomEntry(el: XmlElement, feedAuthors: string, spaces: Set<string>): FeedItem {
  const source = child(el, spaces, 'source');
  const summary = child(el, spaces, 'summary');
  const content = child(el, spaces, 'content');
  const published = dateOf(
    child(el, spaces, 'published'),
    child(el, spaces, 'issued'),
    child(el, spaces, 'created'),
    child(el, only(NS.dc), 'date'),
    child(el, only(NS.dcterms), 'issued', 'created', 'date'),
    child(el, spaces, 'updated'),
    child(el, spaces, 'modified'),
    child(el, only(NS.dcterms), 'modified'),
  );
  return item({
    id: idOf(child(el, spaces, 'id')),
    link: atomLink(el, spaces),
    title: atomText(child(el, spaces, 'title'), true) || mediaTitle(el),
    description: summary && textOf(summary).trim() ? atomText(summary, false) : atomText(content, false),
    published,
    author: atomAuthors(el, spaces) || atomAuthors(source, spaces) || feedAuthors,
  });
}

function readFeed(root: XmlElement): { title: string; items: FeedItem[] } {
  if (root.name === 'rss' || (root.name === 'rdf' && root.ns === NS.rdf)) {
    const channel = child(root, RSS, 'channel');
    // Items are read where they are, in the channel or (RSS 1.0, and RSS 2.0 feeds written by hand) beside it.
    const items = [...childrenNamed(channel, RSS, 'item'), ...childrenNamed(root, RSS, 'item')];
    if (!channel && items.length === 0) throw new Error('it is RSS with neither a <channel> nor any <item>');
    const channelAuthor = tidy(textIn(child(channel, only(NS.dc), 'creator')), true);
    return { title: rssTitle(child(channel, RSS, 'title')), items: items.map((i) => rssItem(i, channelAuthor)) };
  }
  if (root.name === 'feed' && ATOM.has(root.ns)) {
    const spaces = root.ns === '' ? only('') : ATOM_ONLY;
    const feedAuthors = atomAuthors(root, spaces);
    return { title: atomText(child(root, spaces, 'title'), true), items: childrenNamed(root, spaces, 'entry').map((e) => atomEntry(e, feedAuthors, spaces)) };
  }
  throw new Error('it is XML but neither RSS 2.0 (<rss><channel>), RSS 1.0 (<rdf:RDF>) nor Atom (<feed>)');
}

/**
 * Parses a feed from its bytes (or text already decoded) and where they came
 * from; throws with a sentence when it is not RSS or Atom. Never throws
 * anything else: whatever a feed holds, the caller gets that sentence.
 */
export function parseFeed(body: string | Uint8Array, origin: FeedOrigin = {}): { title: string; items: FeedItem[] } {
  const text = typeof body === 'string' ? body : decodeFeedBytes(body, origin.contentType).text;
  const url = origin.url && /^https?:/i.test(origin.url) ? origin.url : null;
  try {
    const roots = parseXml(text.replace(/^\uFEFF/, '').trimStart(), url);
    if (roots.length !== 1) throw new Error(roots.length === 0 ? 'it holds no XML element' : 'it is not well-formed XML (more than one root element)');
    return readFeed(roots[0]!);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('it ')) throw error;
    throw new Error(`it could not be read as a feed (${error instanceof Error ? error.message.slice(0, 200) : 'parse error'})`);
  }
}

/** Items oldest first: by publication time where known, else in reverse feed order (feeds list newest first). */
export function oldestFirst(items: SourceItem[]): SourceItem[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      if (a.item.published !== null && b.item.published !== null && a.item.published !== b.item.published) return a.item.published - b.item.published;
      return b.index - a.index;
    })
    .map(({ item }) => item);
}
