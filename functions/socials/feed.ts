/**
 * RSS 2.0 and Atom, parsed with fast-xml-parser: a maintained, dependency-
 * light parser that builds plain objects and, as configured here, expands
 * no entities beyond XML's five (no DOCTYPE entities, no external ones), so
 * a hostile feed can neither blow up memory nor reach the network.
 */
import { XMLParser } from 'fast-xml-parser';
import { createHash } from 'node:crypto';

/** One item of a source, whatever its kind. */
export interface SourceItem {
  /** Identifies the item within its source (contract 7). */
  key: string;
  title: string;
  /** Description, cut to 500 characters (rss). */
  description: string | null;
  link: string | null;
  /** Epoch ms, when the source says; used to order items oldest first. */
  published: number | null;
}

let parser: XMLParser | undefined;
const parserOf = () =>
  (parser ??= new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    trimValues: true,
    parseTagValue: false,
    isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
  }));

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && '#text' in (value as object)) return String((value as { '#text': unknown })['#text']);
  return String(value);
};

/** The XML predefined entities, decoded after parsing (entity expansion itself stays off). */
const unescape = (value: string) =>
  value.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (whole, name: string) => {
    const fixed: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
    if (fixed[name.toLowerCase()]) return fixed[name.toLowerCase()]!;
    const code = name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
  });

const clean = (value: unknown) => unescape(text(value)).trim();
const time = (value: unknown): number | null => {
  const parsed = Date.parse(clean(value));
  return Number.isFinite(parsed) ? parsed : null;
};
const hashKey = (title: string, description: string) => `h:${createHash('sha256').update(`${title}\u0000${description}`).digest('hex').slice(0, 32)}`;

/** The key of a feed item: guid or Atom id, else its link, else a hash of title and description (contract 7). */
export function feedItemKey(guid: string, link: string, title: string, description: string): string {
  if (guid) return `g:${guid}`;
  if (link) return `l:${link}`;
  return hashKey(title, description);
}

const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/** Parses a feed; throws with a sentence when the text is not RSS 2.0 or Atom. */
export function parseFeed(xml: string): { title: string; items: SourceItem[] } {
  let doc: Record<string, any>;
  try {
    doc = parserOf().parse(xml, true) as Record<string, any>;
  } catch (error) {
    throw new Error(`it is not well-formed XML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'})`);
  }
  if (doc.rss && typeof doc.rss === 'object') {
    const channel = doc.rss.channel ?? {};
    const items = (channel.item ?? []) as Record<string, unknown>[];
    return {
      title: clean(channel.title),
      items: items.map((item) => {
        const title = clean(item.title);
        const description = clean(item.description);
        const link = clean((item.link as unknown[] | undefined)?.[0]);
        return { key: feedItemKey(clean(item.guid), link, title, description), title, description: cut(description, 500) || null, link: link || null, published: time(item.pubDate) };
      }),
    };
  }
  if (doc.feed && typeof doc.feed === 'object') {
    const entries = (doc.feed.entry ?? []) as Record<string, unknown>[];
    return {
      title: clean(doc.feed.title),
      items: entries.map((entry) => {
        const links = (entry.link ?? []) as Record<string, unknown>[];
        const alternate = links.find((l) => !l['@rel'] || l['@rel'] === 'alternate') ?? links[0];
        const link = clean(alternate?.['@href']);
        const title = clean(entry.title);
        const description = clean(entry.summary ?? entry.content);
        return { key: feedItemKey(clean(entry.id), link, title, description), title, description: cut(description, 500) || null, link: link || null, published: time(entry.published ?? entry.updated) };
      }),
    };
  }
  throw new Error('it is XML but neither RSS 2.0 (<rss><channel>) nor Atom (<feed>)');
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
