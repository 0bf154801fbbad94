/**
 * The characters of a feed's bytes. A feed says its encoding in up to three
 * places; they are taken in this order (XML 1.0 appendix F, RFC 7303):
 *
 * 1. a byte order mark (UTF-8, UTF-16 or UTF-32), which nothing overrides;
 * 2. without one, bytes that can only be UTF-16 or UTF-32 (`<` followed or
 *    preceded by zero bytes), read in that family;
 * 3. the `charset` of the `Content-Type` header;
 * 4. the `encoding` of the XML declaration;
 * 5. UTF-8.
 *
 * A candidate whose name no decoder knows, or that the bytes break (invalid
 * UTF-8, say), gives way to the next one, and windows-1252 reads whatever is
 * left. One exception for a frequent server misconfiguration: when the
 * header names a single-byte encoding (ISO-8859-1 is a server default) and
 * the document declares UTF-8 or nothing, UTF-8 is tried first; text in a
 * single-byte encoding is almost never valid UTF-8, so it still goes on to
 * the header's encoding.
 *
 * Decoding is the platform's `TextDecoder` (every WHATWG encoding: the
 * windows and ISO-8859 families, KOI8, Shift_JIS, EUC-JP, ISO-2022-JP,
 * GBK, GB18030, Big5, EUC-KR, UTF-16), plus UTF-32 here. As browsers do,
 * `iso-8859-1`, `latin1` and `us-ascii` read as windows-1252. (iconv-lite
 * would add about 480 KiB to every bundle that reads feeds, for encodings
 * no feed in the wild is written in.)
 */

const SINGLE_BYTE = /^(windows-125\d|iso-8859-\d+|koi8-[ru]|ibm866|macintosh|x-mac-cyrillic)$/;

/** The encoding TextDecoder calls a label by, or 'utf-32le'/'utf-32be', or null when nothing knows it. */
export function encodingOf(label: string): string | null {
  const name = label.trim().toLowerCase();
  if (['utf-32', 'utf32', 'ucs-4', 'iso-10646-ucs-4'].includes(name)) return 'utf-32be';
  if (name === 'utf-32le' || name === 'utf-32be') return name;
  try {
    const known = new TextDecoder(name).encoding;
    return known === 'replacement' ? null : known;
  } catch {
    return null;
  }
}

function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  if (bytes.byteLength % 4 !== 0) throw new TypeError('not UTF-32');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let out = '';
  for (let at = 0; at < bytes.byteLength; at += 4) {
    const code = view.getUint32(at, littleEndian);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new TypeError('not UTF-32');
    out += String.fromCodePoint(code);
  }
  return out;
}

/** Decodes strictly: throws when the bytes are not in that encoding. */
function decodeAs(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return decodeUtf32(bytes, encoding === 'utf-32le');
  return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
}

function byteOrderMark(b: Uint8Array): { encoding: string; length: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return { encoding: 'utf-32le', length: 4 };
  if (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return { encoding: 'utf-32be', length: 4 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  return null;
}

/** UTF-16 or UTF-32 without a BOM, told by where the zero bytes around the first `<` are. */
function wideFamily(b: Uint8Array): string | null {
  if (b[0] === 0x3c && b[1] === 0 && b[2] === 0 && b[3] === 0) return 'utf-32le';
  if (b[0] === 0 && b[1] === 0 && b[2] === 0 && b[3] === 0x3c) return 'utf-32be';
  if (b[0] === 0x3c && b[1] === 0 && b[2] !== 0) return 'utf-16le';
  if (b[0] === 0 && b[1] === 0x3c) return 'utf-16be';
  return null;
}

/** The `charset` parameter of a Content-Type header value. */
export function charsetOf(contentType: string | null | undefined): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return (match?.[1] ?? match?.[2] ?? '').trim() || null;
}

/** The `encoding` of the XML declaration, read from the ASCII-compatible start of the bytes. */
export function declaredEncoding(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512));
  return /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/.exec(head)?.[1] ?? null;
}

const isAscii = (bytes: Uint8Array) => bytes.every((b) => b < 0x80);

/** The text of a feed's bytes, the encoding chosen as the module comment says; also answers which encoding that was. */
export function decodeFeedBytes(bytes: Uint8Array, contentType?: string | null): { text: string; encoding: string } {
  const bom = byteOrderMark(bytes);
  if (bom) {
    try {
      return { text: decodeAs(bytes.subarray(bom.length), bom.encoding), encoding: bom.encoding };
    } catch {
      // a BOM followed by bytes of another encoding: read on as if it were not there
    }
  }
  const wide = wideFamily(bytes);
  const header = encodingOf(charsetOf(contentType) ?? '');
  const declared = encodingOf(declaredEncoding(bytes) ?? '');
  const candidates: string[] = [];
  if (wide) candidates.push(wide);
  if (header !== null && SINGLE_BYTE.test(header) && (declared === null || declared === 'utf-8') && !isAscii(bytes)) candidates.push('utf-8');
  if (header && !/^utf-(16|32)/.test(header)) candidates.push(header);
  if (declared && !/^utf-(16|32)/.test(declared)) candidates.push(declared);
  candidates.push('utf-8');
  for (const encoding of candidates) {
    try {
      return { text: decodeAs(bytes, encoding), encoding };
    } catch {
      // these bytes are not in that encoding: the next candidate
    }
  }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
}
