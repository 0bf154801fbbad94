/**
 * Tags figures: DynamoDB requests to look a tag up by name, by ID, and to
 * create, rename and delete a tag with 10 names, beside their floors. Run
 * alone with `npx tsx bench/tags.ts`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { countDynamoRequests, handlerRequests } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'tags';
const BASE = '/modules/tags';

function client(service: LocalService) {
  return async (method: string, path: string, init: { body?: unknown; query?: Record<string, string> } = {}) => {
    const url = new URL(service.url + BASE + path);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${service.serviceToken}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const json = (await res.json()) as { data: any };
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
}

export async function runTagsBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const counter = countDynamoRequests();
  try {
    const call = client(service);
    const guild = '9234567890123456789';
    const names = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}${i}`);
    const create = (prefix: string) =>
      call('POST', '/entries', {
        body: { guild_id: guild, owner_id: '9334567890123456789', content: 'Hello <user_mention>', visibility: 1, names: names(prefix) },
      });
    await call('POST', '/enable', { body: { guild_id: guild } });
    // The first create of a process reserves blocks of record IDs; the figures are of the next ones.
    await create('warm');

    const rows: Row[] = [];
    const measure = async (what: string, floor: number, note: string, run: () => Promise<unknown>) => {
      counter.take();
      await run();
      const n = handlerRequests(counter.take());
      rows.push({ section: SECTION, measure: what, value: `${n} DynamoDB (floor ${floor})`, note });
      return n;
    };
    let tagId = '';
    await measure(
      'create a tag with 10 names',
      13,
      'module state read; count under the limit (1 conditional update); 10 name pointers (conditional puts, at once); the tag (1 put)',
      async () => {
        tagId = (await create('name')).entry.tag_id;
      },
    );
    await measure(
      'look a tag up by name',
      2,
      '2 reads: the name pointer (batched with the module state, consistent), then the tag it points to; no scan, no index',
      () => call('GET', '/entries', { query: { guild_id: guild, name: 'NAME7' } }),
    );
    await measure('get a tag by ID', 1, 'module state and tag in one consistent batch read', () =>
      call('GET', `/entries/${tagId}`, { query: { guild_id: guild } }),
    );
    await measure(
      'rename: 10 names replaced by 10 others',
      22,
      'state and tag (1 batch read); 10 claims; the tag switched under its version (1 put); 10 old pointers released',
      () => call('PUT', `/entries/${tagId}`, { body: { guild_id: guild, names: names('other') } }),
    );
    await measure('delete a tag with 10 names', 13, 'state and tag (1 batch read); the tag (1 conditional delete); 10 pointers; the count', () =>
      call('DELETE', `/entries/${tagId}`, { body: { guild_id: guild } }),
    );
    return rows;
  } finally {
    counter.stop();
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runTagsBench());
}
