/** What local mode's HTTP server answers before any handler, in the envelope like everything else. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, SERVICE_TOKEN, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** Sends raw bytes and answers the status and the JSON body. */
function raw(request: string): Promise<{ status: number; body: any }> {
  const { port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      // The JSON body, with or without chunked framing around it.
      const body = data.slice(data.indexOf('\r\n\r\n') + 4);
      const json = body.includes('{') ? body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1) : '';
      try {
        resolve({ status, body: json ? JSON.parse(json) : null });
      } catch (error) {
        reject(error);
      }
    });
    socket.on('error', reject);
  });
}

describe('the HTTP edges of local mode', () => {
  it('answers HEAD as GET without a body', async () => {
    const res = await fetch(`${service.url}/livez`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const missing = await fetch(`${service.url}/modules/polls/status`, { method: 'HEAD', headers: { authorization: `Bearer ${SERVICE_TOKEN}` } });
    expect(missing.status).toBe(400);
  });

  it('folds runs of slashes, so //modules/... is /modules/...', async () => {
    const res = await raw(`GET //modules/polls/ HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(200);
    expect(res.body.data.message).toContain('polls');
    const unknown = await raw(`GET //nothing//here HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('/nothing/here');
  });

  it('answers 431 in the envelope for headers too large, 414 for a URL too long, 400 for what is not HTTP', async () => {
    const big = await raw(`GET /livez HTTP/1.1\r\nHost: local\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(big.body).toMatchObject({ success: false, data: {}, error: { code: 431 } });
    const long = await raw(`GET /livez?${'q'.repeat(9000)} HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n`);
    expect(long.status).toBe(414);
    expect(long.body.error.code).toBe(414);
    const junk = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(junk.status).toBe(400);
    expect(junk.body.error.name).toBe('BadRequestError');
  });
});
