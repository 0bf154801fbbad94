import { createRequire } from 'node:module';

/**
 * What the platform transport needs of an HTTP call: fetch's shape, cut to
 * what it reads. The global `fetch` satisfies it.
 */
export interface PlatformAnswer {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type PlatformFetch = (
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<PlatformAnswer>;

/**
 * Built-ins through `require`: an ESM import of `node:http` builds its whole
 * namespace, undici included; `require` loads the module alone, and the
 * DynamoDB client has loaded it already.
 */
const load = createRequire(import.meta.url) as (id: 'node:http' | 'node:https') => typeof import('node:https');

/**
 * The platform calls over `node:https` rather than the global `fetch`. Both
 * speak the same HTTP; fetch is undici, whose first use costs a cold
 * function about 25 ms, paid on the member's first click after a quiet
 * spell, where `node:https` is already loaded by the DynamoDB client.
 * Network errors keep fetch's form (the cause holds the system error), so
 * the transport's retry rules read them the same way.
 */
export const nodeFetch: PlatformFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const fail = (error: Error) =>
      reject(error.name === 'AbortError' && init.signal.reason instanceof Error ? init.signal.reason : new Error(error.message, { cause: error }));
    const request = load(url.protocol === 'https:' ? 'node:https' : 'node:http').request(
      url,
      { method: init.method, headers: init.headers, signal: init.signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status,
            ok: status >= 200 && status < 300,
            headers: { get: (name) => [response.headers[name.toLowerCase()] ?? []].flat().join(', ') || null },
            text: async () => text,
          });
        });
      },
    );
    request.on('error', fail);
    request.end(init.body);
  });
