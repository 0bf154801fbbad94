/**
 * The OpenAPI document and the dashboard's assets travel as a browser can
 * keep them (a validator and a lifetime, 304 while unchanged), and local
 * mode gzips large answers for clients that accept gzip, as API Gateway's
 * minimum compression size does in AWS.
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_COMPRESSION_BYTES } from '#shared/http/caching.js';
import { type TestService, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** A GET as the wire carries it: the status, the headers and the bytes, not decoded. */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the OpenAPI document', () => {
  it('carries an ETag and a cache lifetime, and answers 304 without a body while the tag still names it', async () => {
    const first = await get('/openapi.json');
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(JSON.parse(first.bytes.toString('utf8')).openapi).toBe('3.1.0');

    const again = await get('/openapi.json', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=300');
    // A weak form and a list naming it are the same validator for a GET.
    expect((await get('/openapi.json', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);

    const other = await get('/openapi.json', { 'if-none-match': '"an-older-document"' });
    expect(other.status).toBe(200);
    expect(other.bytes.equals(first.bytes)).toBe(true);
  });

  it('is sent gzipped to a client that accepts gzip, and as it is to one that does not', async () => {
    const plain = await get('/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();

    const zipped = await get('/openapi.json', { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.bytes.length);
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 5);
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);

    for (const refused of ['gzip;q=0', 'identity', 'br', '*;q=0']) {
      const answer = await get('/openapi.json', { 'accept-encoding': refused });
      expect(answer.headers['content-encoding'], refused).toBeUndefined();
      expect(answer.bytes.equals(plain.bytes), refused).toBe(true);
    }
    expect((await get('/openapi.json', { 'accept-encoding': '*' })).headers['content-encoding']).toBe('gzip');
    // HEAD: the gzipped answer's headers, no body.
    const head = await get('/openapi.json', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(Number(head.headers['content-length'])).toBe(zipped.bytes.length);
    expect(head.bytes.length).toBe(0);
  });
});

describe('small answers', () => {
  it('are sent as they are even to a client that accepts gzip', async () => {
    const live = await get('/livez', { 'accept-encoding': 'gzip' });
    expect(live.bytes.length).toBeLessThan(MIN_COMPRESSION_BYTES);
    expect(live.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(live.bytes.toString('utf8'))).toEqual({ success: true, data: { status: 'ok' } });
  });
});

describe("the dashboard's assets", () => {
  it('carry an ETag and a lifetime, and answer 304 while unchanged', async () => {
    for (const asset of ['dashboard.js', 'dashboard.css']) {
      const first = await get(`/dashboard/assets/${asset}`);
      expect(first.status, asset).toBe(200);
      expect(first.headers['cache-control']).toBe('public, max-age=300');
      const again = await get(`/dashboard/assets/${asset}`, { 'if-none-match': String(first.headers.etag) });
      expect(again.status, asset).toBe(304);
      expect(again.bytes.length).toBe(0);
    }
  });
});
