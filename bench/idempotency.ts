import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { IdempotencyKeyEntity } from '#shared/http/idempotency-store.js';
import { buildFunctions } from '#infra/build.js';
import { bundleKey } from '#infra/bundles.js';
import { startLocal } from '#infra/local/start.js';
import { ensureTable, startEmbeddedDynamo } from '#infra/local/table.js';
import { snowflakes } from './requests.js';
import { type Row, kib, median, printRows } from './table.js';

/**
 * `Idempotency-Key` (behaviour §16), `npx tsx bench/idempotency.ts` (and a
 * section of `npm run bench`):
 *
 * - What a key costs a bot event: the table requests and bytes a recording
 *   of a sent message (the busiest event) makes without a key, with a new
 *   key, and repeated with the same key (the kept answer replayed), counted
 *   on the service's own table client in local mode; and the kept item's
 *   size, from which its write units follow.
 * - What handling the key costs a function's cold start: the work of the
 *   SDK floor (one GetItem) alone, behind the service's own handling
 *   (shared/http/idempotency.ts), and behind Powertools for AWS Lambda's
 *   idempotency utility with DynamoDB persistence; each bundled as
 *   infra/build.ts bundles a function, then loaded and called once with a
 *   new key in a fresh Node process against an embedded table, interleaved,
 *   `BENCH_IDEM_ROUNDS` times (default 9). The differences are the figure.
 */
const SECTION = 'idempotency';
const CALLS = 200;
const ROUNDS = Number(process.env.BENCH_IDEM_ROUNDS || 9);
const VARIANTS = ['none', 'ours', 'powertools'] as const;
const run = promisify(execFile);
const snowflake = snowflakes(4234567890000000000n);

interface Tally {
  requests: number;
  /** Bytes of the requests' JSON bodies sent to the table, and of the answers read back. */
  sent: number;
  received: number;
}

/**
 * Counts the key's own table requests (those on `IDEM#` items) through the
 * service's client, and the bytes each carries each way: exact whatever
 * else local mode's jobs ask of the table meanwhile.
 */
function tallyRequests(): { take(): Tally; stop(): void } {
  let tally: Tally = { requests: 0, sent: 0, received: 0 };
  const stack = db().middlewareStack;
  // The HTTP bodies each way: what was sent, and the answer's length as the table gave it (a refused condition answers an error body).
  const length = (headers: Record<string, string> | undefined) => Number(headers?.['content-length'] ?? 0);
  stack.add(
    (next) => async (args) => {
      // The input as sent, marshalled: `{ pk: { S: 'IDEM#...' } }`.
      const input = args.input as { Item?: { pk?: { S?: string } }; Key?: { pk?: { S?: string } } };
      if (!String((input.Item ?? input.Key)?.pk?.S ?? '').startsWith('IDEM#')) return next(args);
      tally.requests++;
      const body = (args.request as { body?: string | Uint8Array }).body;
      tally.sent += typeof body === 'string' ? Buffer.byteLength(body) : (body?.byteLength ?? 0);
      try {
        const out = await next(args);
        tally.received += length((out.response as { headers?: Record<string, string> }).headers);
        return out;
      } catch (error) {
        tally.received += length((error as { $response?: { headers?: Record<string, string> } }).$response?.headers);
        throw error;
      }
    },
    { step: 'finalizeRequest', name: 'benchIdemBytes' },
  );
  return {
    take() {
      const taken = tally;
      tally = { requests: 0, sent: 0, received: 0 };
      return taken;
    },
    stop() {
      stack.remove('benchIdemBytes');
    },
  };
}

/** An item's size as DynamoDB counts it for capacity: each attribute's name and value in bytes. */
function itemBytes(item: Record<string, unknown>): number {
  const size = (value: unknown): number => {
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (typeof value === 'number') return Math.ceil(String(value).replace(/^-|\./g, '').length / 2) + 1;
    if (typeof value === 'boolean' || value === null) return 1;
    if (value instanceof Uint8Array) return value.length;
    if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + 1 + size(v), 0);
    if (typeof value === 'object') return 3 + Object.entries(value as object).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + 1 + size(v), 0);
    return 0;
  };
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + size(value), 0);
}

/** What a key costs a recording of a sent message, in local mode (dynalite). */
async function keptAnswerCost(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  try {
    const headers = (key?: string) => ({
      authorization: `Bearer ${service.serviceToken}`,
      'content-type': 'application/json',
      ...(key ? { 'Idempotency-Key': key } : {}),
    });
    const post = async (path: string, body: unknown, key?: string) => {
      const res = await fetch(service.url + path, { method: 'POST', headers: headers(key), body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
      return { text, replayed: res.headers.get('idempotent-replayed') === 'true' };
    };
    const guild = snowflake();
    await post('/modules/serverstats/enable', { guild_id: guild });
    const path = '/modules/serverstats/stats/messages/sent';
    const bodies = Array.from({ length: CALLS }, () => ({ guild_id: guild, channel_id: snowflake(), author_id: snowflake(), message_id: snowflake() }));
    // The first recording of a process reads the settings and reserves a block of ids: not counted.
    await post(path, { ...bodies[0], message_id: snowflake() });

    const tally = tallyRequests();
    const per = (t: Tally) => ({ requests: t.requests / CALLS, sent: t.sent / CALLS, received: t.received / CALLS });
    const keys = bodies.map((_, i) => `message:${guild}:${i}:created`);
    let answerBytes = 0;
    for (const [i, body] of bodies.entries()) answerBytes += Buffer.byteLength((await post(path, body, keys[i])).text);
    const first = per(tally.take());
    let replayed = 0;
    for (const [i, body] of bodies.entries()) if ((await post(path, body, keys[i])).replayed) replayed++;
    const repeat = per(tally.take());
    tally.stop();
    if (replayed !== CALLS) throw new Error(`only ${replayed} of ${CALLS} repeats were replayed`);

    const kept = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: IdempotencyKeyEntity.key({ scope: 'service', operation: 'serverstats.stats.messages.sent.record', key: keys[0]! }),
      }),
    );
    if (!kept.Item) throw new Error('no kept answer found');
    const keptBytes = itemBytes(kept.Item);
    const bytes = (n: number) => `${Math.round(n)} B`;
    return [
      {
        section: SECTION,
        measure: "a key's table requests per call: new key / repeat",
        value: `${first.requests.toFixed(2)} / ${repeat.requests.toFixed(2)}`,
        note: `POST ${path} (a recording of a sent message, the busiest bot event), ${CALLS} calls each: take then keep; a repeat is a refused take then a consistent read (dynalite does not return the item a refused write found; DynamoDB does, so on AWS a repeat is 1 request and runs nothing else)`,
      },
      {
        section: SECTION,
        measure: "a key's table bytes per call, sent / received: new key, repeat",
        value: `${bytes(first.sent)} / ${bytes(first.received)}, ${bytes(repeat.sent)} / ${bytes(repeat.received)}`,
        note: 'HTTP bodies of those requests and of their answers',
      },
      {
        section: SECTION,
        measure: 'kept answer item',
        value: `${keptBytes} B (${Math.ceil(keptBytes / 1024)} WCU to write)`,
        note: `the answer itself ${Math.round(answerBytes / CALLS)} B; a new key writes 2 items (running, then kept: ${Math.ceil(keptBytes / 1024) + 1} WCU); a repeat's refused write 1 WCU (plus 1 RCU for its read on dynalite)`,
      },
    ];
  } finally {
    await service.stop();
  }
}

const CHILD = `process.stdout;process.stderr;
const t0 = performance.now();
const mod = await import(process.env.BENCH_FILE);
const t1 = performance.now();
const event = { httpMethod: 'POST', resource: '/bench', path: '/bench', headers: { 'Idempotency-Key': process.env.BENCH_KEY }, pathParameters: null, queryStringParameters: null, body: '{"n":1}', isBase64Encoded: false, requestContext: {} };
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10000 };
const answer = await mod.handler(event, context);
const t2 = performance.now();
if (answer.statusCode !== 200) throw new Error('answered ' + answer.statusCode);
process.stderr.write(JSON.stringify({ init: t1 - t0, first: t2 - t1 }));`;

/** The load and first call of the key's handling, against the same work without it. */
async function coldCost(): Promise<Row[]> {
  const table = await startEmbeddedDynamo(null);
  const outdir = mkdtempSync(join(tmpdir(), 'bench-idem-'));
  try {
    const name = `bench-idem-${process.pid}`;
    await ensureTable(table.endpoint, name);
    const files = Object.fromEntries(VARIANTS.map((v) => [v, `bench/idempotency/${v}.ts`]));
    const built = await buildFunctions({ routes: [], extraFiles: Object.values(files), outdir });
    const bundleOf = (variant: string) => join(built.bundles.get(files[variant]!)!, 'index.mjs');
    const bytes = new Map(
      VARIANTS.map((v) => [v, Object.entries(built.metafile.outputs).find(([path]) => path.endsWith(`${bundleKey(files[v]!)}/index.mjs`))![1].bytes]),
    );
    const times = new Map<string, { init: number[]; first: number[]; both: number[] }>(VARIANTS.map((v) => [v, { init: [], first: [], both: [] }]));
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of VARIANTS) {
        const { stderr } = await run(process.execPath, ['--input-type=module', '-e', CHILD], {
          env: {
            PATH: process.env.PATH ?? '',
            BENCH_FILE: pathToFileURL(bundleOf(variant)).href,
            BENCH_KEY: `cold-${process.pid}-${++n}`,
            TABLE_NAME: name,
            DYNAMODB_ENDPOINT: table.endpoint,
            AWS_REGION: 'local',
            AWS_ACCESS_KEY_ID: 'local',
            AWS_SECRET_ACCESS_KEY: 'local',
          },
          encoding: 'utf8',
        });
        const { init, first } = JSON.parse(stderr) as { init: number; first: number };
        times.get(variant)!.init.push(init);
        times.get(variant)!.first.push(first);
        times.get(variant)!.both.push(init + first);
      }
    }
    const at = (variant: string, part: 'init' | 'first' | 'both') => median(times.get(variant)![part]);
    const baseBytes = bytes.get('none')!;
    const over = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} ms`;
    return VARIANTS.filter((v) => v !== 'none').map((variant) => ({
      section: SECTION,
      measure: variant === 'ours' ? 'cold start: shared/http/idempotency.ts' : 'cold start: Powertools idempotency (DynamoDB)',
      value: `${over(at(variant, 'both') - at('none', 'both'))} (load ${over(at(variant, 'init') - at('none', 'init'))}, first call ${over(at(variant, 'first') - at('none', 'first'))}), +${kib(bytes.get(variant)! - baseBytes)}`,
      note: `load and first keyed call over the same work without a key (${at('none', 'both').toFixed(1)} ms: load ${at('none', 'init').toFixed(1)}, first call ${at('none', 'first').toFixed(1)}; ${kib(baseBytes)}); the first call's two key requests included, and the table client made at load in the baseline and Powertools, at the first call in ours; medians of ${ROUNDS}, interleaved; bundled as infra/build.ts bundles a function, against an embedded table`,
    }));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
    await table.close();
  }
}

/** Both parts, as rows of `npm run bench`. */
export async function runIdempotencyBench(): Promise<Row[]> {
  return [...(await keptAnswerCost()), ...(await coldCost())];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await runIdempotencyBench());
