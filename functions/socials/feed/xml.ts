/**
 * A feed's XML as a small tree that knows namespaces and `xml:base`, built
 * on fast-xml-parser's ordered output (mixed content keeps its order, CDATA
 * sections stay apart from text). The parser expands no entity at all, so a
 * hostile DOCTYPE can neither blow up memory nor reach the network; text and
 * attribute values are decoded here, once, with the HTML named set, which
 * feeds use without declaring it.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeXmlText } from './text.js';

export interface XmlText {
  kind: 'text';
  /** The characters: references decoded in text, as written in a CDATA section. */
  text: string;
  cdata: boolean;
}

export interface XmlElement {
  kind: 'element';
  /** The namespace, compared as {@link nsKey} writes it ('' for none). */
  ns: string;
  /** The local name, lower-cased (feeds are written by hand: `<pubdate>`, `<pubDate>`). */
  name: string;
  /** Attributes by name as written, values decoded. */
  attrs: Record<string, string>;
  /** The base URI in scope for this element and its attributes (`xml:base`, nested, over the document's URL). */
  base: string | null;
  children: XmlNode[];
}

export type XmlNode = XmlText | XmlElement;

/** A namespace name as compared here: lower case, without a trailing `/` or `#` (feeds disagree on both). */
export const nsKey = (uri: string) =>
  uri
    .trim()
    .toLowerCase()
    .replace(/[/#]+$/, '');

/** Prefixes feeds use without declaring them, read as what they always mean. */
const CUSTOMARY_PREFIXES = new Map(
  Object.entries({
    atom: 'http://www.w3.org/2005/Atom',
    dc: 'http://purl.org/dc/elements/1.1/',
    dcterms: 'http://purl.org/dc/terms/',
    content: 'http://purl.org/rss/1.0/modules/content/',
    rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
    xhtml: 'http://www.w3.org/1999/xhtml',
    media: 'http://search.yahoo.com/mrss/',
  }).map(([prefix, uri]) => [prefix, nsKey(uri)]),
);

/** A URI reference resolved against a base; as written when it is absolute or there is no usable base. */
export function resolveUri(reference: string, base: string | null): string {
  if (!reference || !base || /^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference;
  try {
    return new URL(reference, base).href;
  } catch {
    return reference;
  }
}

let parser: XMLParser | undefined;
const parserOf = () =>
  (parser ??= new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    cdataPropName: '#cdata',
    commentPropName: '#comment',
  }));

type Ordered = Record<string, unknown> & { ':@'?: Record<string, unknown> };

const ATTRS = ':@';

function build(raw: Ordered[], scope: Map<string, string>, base: string | null): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const entry of raw) {
    const name = Object.keys(entry).find((key) => key !== ATTRS);
    if (!name || name === '#comment') continue;
    const value = entry[name];
    if (name === '#text') {
      nodes.push({ kind: 'text', text: decodeXmlText(String(value)), cdata: false });
      continue;
    }
    if (name === '#cdata') {
      const inner = (value as Ordered[]).map((part) => String(part['#text'] ?? '')).join('');
      nodes.push({ kind: 'text', text: inner, cdata: true });
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [key, attr] of Object.entries(entry[ATTRS] ?? {})) attrs[key] = decodeXmlText(String(attr));
    let inner = scope;
    for (const [key, uri] of Object.entries(attrs)) {
      if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue;
      if (inner === scope) inner = new Map(scope);
      inner.set(key === 'xmlns' ? '' : key.slice('xmlns:'.length), nsKey(uri));
    }
    const colon = name.indexOf(':');
    const prefix = colon > 0 ? name.slice(0, colon) : '';
    const ns = inner.get(prefix) ?? CUSTOMARY_PREFIXES.get(prefix.toLowerCase()) ?? (prefix ? `${prefix}:` : '');
    const elementBase = attrs['xml:base'] ? resolveUri(attrs['xml:base'].trim(), base) : base;
    nodes.push({
      kind: 'element',
      ns,
      name: name.slice(colon + 1).toLowerCase(),
      attrs,
      base: elementBase,
      children: build((value as Ordered[]) ?? [], inner, elementBase),
    });
  }
  return nodes;
}

/** The elements of a document (its root and anything beside it); throws with a sentence when it is not well-formed XML. */
export function parseXml(text: string, url: string | null): XmlElement[] {
  const checked = XMLValidator.validate(text);
  if (checked !== true) {
    const { msg, line, col } = checked.err;
    throw new Error(`it is not well-formed XML (line ${line}, column ${col}: ${msg.slice(0, 200)})`);
  }
  const ordered = parserOf().parse(text) as Ordered[];
  return build(ordered, new Map([['xml', 'http://www.w3.org/xml/1998/namespace']]), url).filter((n): n is XmlElement => n.kind === 'element');
}

export const elementsOf = (el: XmlElement) => el.children.filter((n): n is XmlElement => n.kind === 'element');

/** The characters of an element and its descendants, markup dropped (ids, links, dates). */
export function textOf(el: XmlElement): string {
  return el.children.map((n) => (n.kind === 'text' ? n.text : textOf(n))).join('');
}

/** An attribute by its name without prefix, case-insensitively. */
export function attrOf(el: XmlElement, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(el.attrs)) if (key.toLowerCase() === wanted || key.toLowerCase().endsWith(`:${wanted}`)) return value;
  return undefined;
}

/**
 * The HTML an element's content is: text and CDATA as they are (they hold
 * HTML source), child elements as tags. With `escapeText` the text is
 * escaped instead, for XHTML, whose text is final text.
 */
export function markupOf(nodes: XmlNode[], escapeText: (text: string) => string = (t) => t): string {
  return nodes.map((n) => (n.kind === 'text' ? escapeText(n.text) : `<${n.name}>${markupOf(n.children, escapeText)}</${n.name}>`)).join('');
}
