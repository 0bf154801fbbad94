/**
 * Answers a browser may keep and answers sent compressed: the OpenAPI
 * document the dashboard reads on each guild page is ~1 MB of JSON that only
 * changes with a deployment, so it travels with a validator (ETag, answered
 * 304 when the client holds it), a cache lifetime, and gzipped to clients
 * that accept it (API Gateway's minimum compression size in CDK, the local
 * server's same rule).
 */
import { createHash } from 'node:crypto';
import { RawBody } from './envelope.js';

/** Answers of at least this many bytes are sent gzipped to a client that accepts gzip; smaller ones gain too little. */
export const MIN_COMPRESSION_BYTES = 1024;

/** Whether an Accept-Encoding header accepts gzip: named with a q above 0, or by `*` when not named. */
export function acceptsGzip(header: string | undefined): boolean {
  let star = false;
  for (const part of (header ?? '').split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const wanted = q === undefined || Number(q.slice(2)) > 0;
    if (coding.trim() === 'gzip') return wanted;
    if (coding.trim() === '*') star = wanted;
  }
  return star;
}

/** A strong validator of a text: a digest of its bytes, quoted as an entity tag. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
}

/** Whether If-None-Match names this entity tag (weak comparison, as a GET uses it; `*` names any). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * A text the client may keep for `maxAgeSeconds`, then revalidate: 200 with
 * the text, or 304 without it when If-None-Match already names its tag. Both
 * carry the tag and the lifetime.
 */
export function cacheableText(contentType: string, text: string, etag: string, ifNoneMatch: string | undefined, maxAgeSeconds: number): RawBody {
  const headers = { etag, 'cache-control': `public, max-age=${maxAgeSeconds}` };
  return matchesEtag(ifNoneMatch, etag) ? new RawBody(contentType, '', headers, 304) : new RawBody(contentType, text, headers);
}
