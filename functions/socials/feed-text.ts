/**
 * Feed text to the plain text the platform shows. HTML (an RSS description,
 * an Atom `type="html"` or `type="xhtml"` construct) loses its tags; block
 * elements and `<br>` become line breaks, list items a bullet; scripts and
 * styles are dropped; runs of white space become one space; and character
 * references are decoded once, with the full HTML named set (`entities`).
 */
import { decodeHTML, decodeHTMLStrict } from 'entities';

/** Elements after and before which a line ends. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul',
]);
/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'head', 'template', 'noscript', 'iframe', 'object', 'svg', 'math']);

const BREAK = '\n';

/** Decodes the character references of XML text or an attribute: every HTML name (feeds use them undeclared) and numeric ones, exactly once. */
export const decodeXmlText = (raw: string) => (raw.includes('&') ? decodeHTMLStrict(raw) : raw);

/** Escapes text so that it reads as itself once inside HTML. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Tags, comments, CDATA sections, declarations and processing instructions of an HTML fragment; what lies between is text. */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?\/?>|<[!?][^>]*>/g;

/** Plain text of an HTML fragment, as the module comment says; `singleLine` joins its lines with spaces (titles). */
export function htmlToText(html: string, singleLine = false): string {
  let out = '';
  let hiddenUntil: string | null = null;
  let at = 0;
  const text = (raw: string, decode: boolean) => {
    if (hiddenUntil) return;
    out += (decode ? decodeHTML(raw) : raw).replace(/[ \t\r\n\f]+/g, ' ');
  };
  for (const match of html.matchAll(MARKUP)) {
    text(html.slice(at, match.index), true);
    at = match.index + match[0].length;
    const [, cdata, closing, tagName] = match;
    if (cdata !== undefined) text(cdata, false);
    if (!tagName) continue;
    const tag = tagName.toLowerCase();
    if (hiddenUntil) {
      if (closing && tag === hiddenUntil) hiddenUntil = null;
      continue;
    }
    if (HIDDEN.has(tag) && !closing && !match[0].endsWith('/>')) hiddenUntil = tag;
    else if (tag === 'br') out += closing ? '' : BREAK;
    else if (tag === 'p' || /^h[1-6]$/.test(tag)) out += BREAK + BREAK;
    else if (tag === 'li') out += closing ? '' : `${BREAK}• `;
    else if (BLOCKS.has(tag)) out += BREAK;
    else if ((tag === 'td' || tag === 'th') && closing) out += ' ';
  }
  text(html.slice(at), true);
  return tidy(out, singleLine);
}

/** One space between words, no space around line breaks, at most one empty line in a row, nothing around the whole. */
export function tidy(text: string, singleLine = false): string {
  if (singleLine) return text.replace(/[ \t\r\n\f]+/g, ' ').trim();
  return text
    .split(BREAK)
    .map((line) => line.replace(/[ \t\r\f]+/g, ' ').trim())
    .join(BREAK)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Whether text said to be plain is HTML after all (RSS says nothing about a
 * title's format): a closing tag, a line-break or image tag, or a character
 * reference that survived XML decoding (`Q&amp;amp;A`), as mature parsers judge.
 */
export const looksLikeHtml = (text: string) => /<\/[a-z][a-z0-9]*\s*>|<(?:br|img|hr|p)\b[^>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(text);
