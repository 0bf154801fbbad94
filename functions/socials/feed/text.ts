/**
 * Feed text to the plain text the platform shows. HTML (an RSS description,
 * an Atom `type="html"` or `type="xhtml"` construct) loses its tags; block
 * elements and `<br>` become line breaks, list items a bullet; scripts and
 * styles are dropped; runs of white space become one space; and character
 * references are decoded once, with the full HTML named set (`entities`).
 */
import { decodeHTML, decodeHTMLStrict } from 'entities/decode';

/** Elements after and before which a line ends. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
]);
/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'head', 'template', 'noscript', 'iframe', 'object', 'svg', 'math']);

const BREAK = '\n';

/** Decodes the character references of XML text or an attribute: every HTML name (feeds use them undeclared) and numeric ones, exactly once. */
export const decodeXmlText = (raw: string) => (raw.includes('&') ? decodeHTMLStrict(raw) : raw);

/** Escapes text so that it reads as itself once inside HTML. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Token = { kind: 'text'; text: string; decode: boolean } | { kind: 'tag'; name: string; closing: boolean; selfClosing: boolean };

const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)(?=[\s/>])/y;

/**
 * The tags, comments, CDATA sections, declarations and text of an HTML
 * fragment, in one pass: each piece of markup ends at the first `>` (or
 * `-->`, `]]>`) after it, and a `<` that starts no markup is text. Linear
 * in the fragment, whatever it holds.
 */
function* tokens(html: string): Generator<Token> {
  let textFrom = 0;
  let at = html.indexOf('<');
  while (at >= 0) {
    let end: number;
    let token: Token | null = null;
    if (html.startsWith('<!--', at)) {
      const close = html.indexOf('-->', at + 4);
      end = close < 0 ? html.length : close + 3;
    } else if (html.startsWith('<![CDATA[', at)) {
      const close = html.indexOf(']]>', at + 9);
      end = close < 0 ? html.length : close + 3;
      token = { kind: 'text', text: html.slice(at + 9, close < 0 ? html.length : close), decode: false };
    } else {
      TAG_NAME.lastIndex = at;
      const name = TAG_NAME.exec(html);
      if (!name && html[at + 1] !== '!' && html[at + 1] !== '?') {
        at = html.indexOf('<', at + 1);
        continue;
      }
      const close = html.indexOf('>', at);
      if (close < 0) break;
      end = close + 1;
      if (name) token = { kind: 'tag', name: name[2]!.toLowerCase(), closing: name[1] === '/', selfClosing: html[close - 1] === '/' };
    }
    if (at > textFrom) yield { kind: 'text', text: html.slice(textFrom, at), decode: true };
    if (token) yield token;
    textFrom = end;
    at = html.indexOf('<', end);
  }
  if (textFrom < html.length) yield { kind: 'text', text: html.slice(textFrom), decode: true };
}

/** Plain text of an HTML fragment, as the module comment says; `singleLine` joins its lines with spaces (titles). */
export function htmlToText(html: string, singleLine = false): string {
  let out = '';
  let hiddenUntil: string | null = null;
  for (const token of tokens(html)) {
    if (token.kind === 'text') {
      if (!hiddenUntil) out += (token.decode ? decodeHTML(token.text) : token.text).replace(/[ \t\r\n\f]+/g, ' ');
      continue;
    }
    const { name: tag, closing } = token;
    if (hiddenUntil) {
      if (closing && tag === hiddenUntil) hiddenUntil = null;
      continue;
    }
    if (HIDDEN.has(tag) && !closing && !token.selfClosing) hiddenUntil = tag;
    else if (tag === 'br') out += closing ? '' : BREAK;
    else if (tag === 'p' || /^h[1-6]$/.test(tag)) out += BREAK + BREAK;
    else if (tag === 'li') out += closing ? '' : `${BREAK}• `;
    else if (BLOCKS.has(tag)) out += BREAK;
    else if ((tag === 'td' || tag === 'th') && closing) out += ' ';
  }
  return tidy(out, singleLine);
}

/** Control characters a feed may carry (XML 1.0 forbids most of them, feeds still send them); the platform shows them as boxes. */
const CONTROLS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

/** One space between words, no space around line breaks, at most one empty line in a row, no control characters, nothing around the whole. */
export function tidy(raw: string, singleLine = false): string {
  const text = raw.replace(CONTROLS, '');
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
export const looksLikeHtml = (text: string) => /<\/[a-z][a-z0-9]*\s*>|<(?:br|img|hr|p)\b[^<>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(text);
