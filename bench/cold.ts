import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as z from 'zod/mini';
import { AUTHORIZER_FILE } from '#infra/bundles.js';
import { buildFunctions, writeServedFiles } from '#infra/build.js';
import type { Job } from '#infra/jobs.js';
import { sourceUrls } from '#infra/local/sandbox/sources/routes.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { ownedFieldsOf } from '#shared/http/endpoint.js';
import { loadSpec } from '#shared/http/load-handler.js';
import { namedObjects } from '#shared/http/owned.js';
import { type Route, type RouteSpec, entryOf, fileOf } from '#shared/http/route.js';
import { moduleOfPath } from '#shared/modules/names.js';
import { producerInputs } from '#shared/scheduler/keys.js';
import { GUILD, type Input, MEMBER, fixtures, setups } from './fixtures.js';
import { succeed } from './requests.js';
import { RUNS, withEarlierRuns } from './history.js';
import { type Row, kib, median } from './table.js';

/**
 * What a member feels on the first click after a quiet spell: each
 * function's cold request (load its bundle in a fresh Node process, then
 * answer one request doing its real work against local DynamoDB and the
 * sandbox platform, in a guild as a member's request meets it: the module
 * enabled, the poll voted on or the panel reacted to made first, untimed;
 * `fixtures.ts`), as a ratio to the SDK floor (bench/floor.ts: DynamoDBClient,
 * DynamoDBDocumentClient and one GetItem) built in the same esbuild call
 * with the same settings. Floor and functions run interleaved, in shuffled
 * order, so drift on the machine hits both alike. The first invocation is
 * counted, so work moved from init to the first request does not flatter a
 * function. The headline sets each function against its per-count floor
 * (bench/floor-kinds.ts): the same client making the requests the function
 * makes, of the same kinds, in the same order, so its ratio is what its own
 * code costs beyond its requests (issue 34: within 1.15x for every
 * function); the ratio to the one-read floor is a note. BENCH_COLD_ROUNDS sets the
 * rounds; BENCH_COLD_ONLY, a regular expression over bundle keys, times
 * only the matching functions (a quick check of a change, not the
 * figures); BENCH_TRACE=1 prints what each cold request sent.
 */
export const FLOOR_FILE = 'bench/floor.ts';
/** The per-count floor: the same client making a function's requests, of the same kinds. */
const FLOOR_KINDS_FILE = 'bench/floor-kinds.ts';
const BARE_FILE = 'bench/bare.ts';
export const COLD_RATIO_BUDGET = 1.15;
const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS || 9);
/**
 * BENCH_COLD_PROFILE=<dir>: a CPU profile of each cold request there, with the times its init and first request
 * began and ended beside it; bundles built with source maps and kept (a diagnosis: profiling slows what it
 * measures, so its figures are not the bench's).
 */
const PROFILE_DIR = process.env.BENCH_COLD_PROFILE || undefined;
/** The floor runs again after this many functions. */
const FLOOR_EVERY = 6;

const run = promisify(execFile);

/**
 * The child: stdout and stderr exist before the clock starts (in Lambda the
 * runtime opened them long before a function loads; touching them costs
 * about 3 ms in a fresh Node process). The function writes its log and
 * metrics lines as in Lambda; the child's sample is the last line.
 */
const CHILD = `process.stdout;process.stderr;
const { file, name, event, profileTo } = JSON.parse(process.env.BENCH_INVOKE);
const mark = () => Number(process.hrtime.bigint() / 1000n);
const m0 = mark();
const context = { awsRequestId: 'bench-cold', functionName: 'bench', getRemainingTimeInMillis: () => 10000, callbackWaitsForEmptyEventLoop: false };
const c0 = process.cpuUsage();
const t0 = performance.now();
const mod = await import(file);
const t1 = performance.now();
const m1 = mark();
let status;
let out;
try { out = await mod[name](event, context); status = out && out.statusCode !== undefined ? out.statusCode : 'ok'; } catch (e) { status = 'threw: ' + (e && e.message); }
const t2 = performance.now();
const c = process.cpuUsage(c0);
if (profileTo) (await import('node:fs')).writeFileSync(profileTo, JSON.stringify({ init: [m0, m1], first: [m1, mark()] }));
const reason = (body) => { try { return JSON.parse(body).error.message; } catch { return 'a page'; } };
const refused = status === 400 || status === 422 || status === 500 ? reason(out.body) : undefined;
const line = JSON.stringify({ init: t1 - t0, first: t2 - t1, cpu: (c.user + c.system) / 1000, status, refused });
process.stdout.write('\\n' + line);`;

/** One value the schema accepts, made from its JSON Schema: the smallest that fits. */
function sample(schema: Record<string, any>): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf ?? schema.oneOf)) {
    const options = (schema.anyOf ?? schema.oneOf) as Record<string, any>[];
    const id = options.find((o) => o.type === 'string' && typeof o.pattern === 'string' && o.pattern.includes('0-9'));
    if (id) return GUILD;
    return sample(options.find((o) => o.type !== 'null') ?? options[0]!);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0 && schema.type === undefined) return sample(schema.allOf[0]);
  switch (Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type) {
    case 'string': {
      if (typeof schema.pattern === 'string' && schema.pattern.includes('0-9')) return GUILD;
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/a';
      if (schema.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      const min = Math.max(1, schema.minLength ?? 1);
      return 'a'.repeat(Math.min(min, schema.maxLength ?? min));
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : Math.min(1, schema.maximum ?? 1));
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}));
    case 'object': {
      // Required fields, and every non-null ID (snowflakes read as unknown, so they are never listed as required).
      const isId = (prop: Record<string, any>) => prop.type === 'string' && String(prop.pattern ?? '').includes('0-9');
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, any>>)) {
        if (schema.required?.includes(key) || isId(prop)) out[key] = sample(prop);
      }
      for (const part of schema.allOf ?? []) {
        const more = sample(part);
        if (more && typeof more === 'object') Object.assign(out, more);
      }
      return out;
    }
    default:
      return null;
  }
}

const json = (schema: z.ZodMiniType | undefined) =>
  schema ? (sample(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>) as Record<string, unknown>) : undefined;

/** An API Gateway event for the route, with the smallest input its schemas accept (and `extra`) and the service as caller. */
function routeEvent(route: Route, spec: RouteSpec, extra: Input = {}) {
  const fixture = fixtures[route.id] ?? {};
  const query = spec.query ? { ...json(spec.query), ...fixture.query, ...extra.query } : undefined;
  const body = spec.body ? { ...json(spec.body), ...fixture.body, ...extra.body } : undefined;
  const path = { ...json(spec.params), ...extra.path };
  const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, String(path[name!] ?? GUILD)]));
  return {
    resource: route.path,
    path: route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!),
    httpMethod: route.method,
    headers: { 'content-type': 'application/json', ...(spec.actor ? { 'x-acting-user-id': MEMBER } : {}), ...extra.headers },
    queryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) : null,
    pathParameters: Object.keys(params).length > 0 ? params : null,
    body: body ? JSON.stringify(body) : null,
    isBase64Encoded: false,
    requestContext: { authorizer: { caller: 'service' }, requestId: 'bench-cold' },
  };
}

type RouteEvent = ReturnType<typeof routeEvent>;

/** The same request for another guild. */
const inGuild = <T>(value: T, guild: string): T => JSON.parse(JSON.stringify(value).replaceAll(GUILD, guild)) as T;

interface Invocation {
  /** Bundle folder key. */
  key: string;
  /** What its samples are kept under, when not its bundle key (the floor making several requests). */
  label?: string;
  file: string;
  /** The exported function Lambda calls. */
  name: string;
  event: unknown;
  /**
   * Untimed, before each cold request: puts the request's own guild in the
   * state a member's request meets (its module enabled, the record it acts
   * on made, a key issued) and answers the event naming it. Without it,
   * `event` for that guild.
   */
  prepare?: (service: LocalService, guild: string) => Promise<unknown>;
}

const ENABLE_FILE = 'functions/module-state/enable.ts';
/** The sandbox platform's bot token, as local mode gives it. */
const BOT_TOKEN = 'sandbox-bot-token';

/** Sends a route's request through local mode (untimed setup); answers the envelope's `data`. */
async function sendThrough(service: LocalService, event: RouteEvent): Promise<Record<string, unknown>> {
  const query = event.queryStringParameters ? `?${new URLSearchParams(event.queryStringParameters)}` : '';
  return succeed(service, event.httpMethod, event.path + query, event.body ? JSON.parse(event.body) : undefined, event.headers);
}

/**
 * The channels, categories and roles a request names, made the guild's on
 * the sandbox, as a member's guild has them (behaviour §13: the service checks
 * they are). Messages and invites are made by the route's setup (fixtures.ts).
 */
async function ownedOnSandbox(service: LocalService, spec: RouteSpec, event: RouteEvent, guild: string): Promise<void> {
  const parts = { path: event.pathParameters ?? {}, query: event.queryStringParameters ?? {}, body: event.body ? JSON.parse(event.body) : {} };
  const control = `${new URL(service.sandboxUrl!).origin}/_sandbox`;
  for (const { id, declaration } of namedObjects(ownedFieldsOf(spec), parts)) {
    const { kind } = declaration;
    // The guild's own ID as a role is its @everyone role, which every guild has.
    if ((kind === 'role' && id === guild) || kind === 'message' || kind === 'invite') continue;
    const [path, body] =
      kind === 'role'
        ? [`/guilds/${guild}/roles/${id}`, { name: `role-${id.slice(-4)}` }]
        : [`/channels/${id}`, { guild_id: guild, ...(kind === 'category' ? { type: 4 } : {}) }];
    const res = await fetch(control + path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`sandbox PUT ${path}: ${res.status} ${await res.text()}`);
  }
}

const at = (data: Record<string, unknown>, path: string) => String(path.split('.').reduce<any>((value, part) => value?.[part], data));

/**
 * A route's request as a member's meets the guild: the module enabled (but
 * for the enable route itself), then what `setups` make, through local mode.
 */
function routePreparation(route: Route, spec: RouteSpec, routeById: Map<string, { route: Route; spec: RouteSpec }>): Invocation['prepare'] {
  const module = moduleOfPath(route.path);
  const setup = setups[route.id];
  if ((!module || fileOf(route) === ENABLE_FILE) && !setup) return undefined;
  return async (service, guild) => {
    if (module && fileOf(route) !== ENABLE_FILE) await succeed(service, 'POST', `/modules/${module}/enable`, { guild_id: guild });
    const ids: Record<string, string> = {};
    const take = (data: Record<string, unknown>, names: Record<string, string> = {}) => {
      for (const [name, path] of Object.entries(names)) ids[name] = at(data, path);
    };
    for (const step of setup?.sandbox ?? []) {
      const base = step.api ? service.sandboxUrl! : `${new URL(service.sandboxUrl!).origin}/_sandbox`;
      const res = await fetch(base + inGuild(step.path, guild), {
        method: step.method ?? 'POST',
        headers: { authorization: `Bot ${BOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(inGuild(step.body ?? {}, guild)),
      });
      if (!res.ok) throw new Error(`sandbox ${step.path}: ${res.status} ${await res.text()}`);
      take(res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>), step.take);
    }
    for (const make of setup?.make ?? []) {
      const maker = routeById.get(make.route)!;
      const event = inGuild(routeEvent(maker.route, maker.spec, make.input?.(ids)), guild);
      await ownedOnSandbox(service, maker.spec, event, guild);
      take(await sendThrough(service, event), make.take);
    }
    if (setup?.shown) Object.assign(ids, setup.shown(await (await fetch(`${new URL(service.sandboxUrl!).origin}/_sandbox/state`)).text(), ids));
    if (setup?.run) Object.assign(ids, await setup.run(service, guild, ids));
    const event = inGuild(routeEvent(route, spec, setup?.input?.(ids)), guild);
    await ownedOnSandbox(service, spec, event, guild);
    return event;
  };
}

/** The authorizer's request carries a key the guild was issued. */
const AUTHORIZER_EVENT = (key: string) => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:us-east-1:1:api/v1/GET/modules/polls/status',
  resource: '/modules/polls/status',
  httpMethod: 'GET',
  headers: { Authorization: `Bearer ${key}` },
});

/** How each bundle is called: a route's handler with a valid request, the authorizer with a guild key, a job's producer. */
async function invocations(routes: readonly Route[], jobs: readonly Job[], keyOf: (file: string) => string): Promise<Invocation[]> {
  const out: Invocation[] = [];
  const routeById = new Map<string, { route: Route; spec: RouteSpec }>();
  for (const route of routes) routeById.set(route.id, { route, spec: await loadSpec(route) });
  const unknown = Object.entries(setups)
    .flatMap(([id, setup]) => [id, ...(setup.make ?? []).map((make) => make.route)])
    .filter((id) => !routeById.has(id));
  if (unknown.length > 0) throw new Error(`bench/fixtures.ts names routes that do not exist: ${[...new Set(unknown)].join(', ')}`);
  const seen = new Set<string>();
  for (const { route, spec } of routeById.values()) {
    const entry = entryOf(route);
    if (seen.has(entry)) continue;
    seen.add(entry);
    out.push({ key: keyOf(entry), file: entry, name: 'handler', event: routeEvent(route, spec), prepare: routePreparation(route, spec, routeById) });
  }
  out.push({
    key: keyOf(AUTHORIZER_FILE),
    file: AUTHORIZER_FILE,
    name: 'handler',
    event: AUTHORIZER_EVENT(`gmk.${GUILD}.${'A'.repeat(22)}.secret`),
    prepare: async (service, guild) =>
      AUTHORIZER_EVENT(((await succeed(service, 'POST', '/auth/api-key', { guild_id: guild })) as { api_key: { secret: string } }).api_key.secret),
  });
  for (const job of jobs) {
    // A producer gets what its schedule gives its first run (a shard, for a job that spreads).
    out.push({
      key: keyOf(job.file),
      file: job.file,
      name: job.schedule ? 'produce' : 'handler',
      event: job.schedule ? producerInputs(job.id)[0] : { Records: [] },
    });
  }
  return out;
}

/** BENCH_TRACE=1: each cold request's table operations and platform calls, in the order they arrived, printed as it ends. */
const TRACE = Boolean(process.env.BENCH_TRACE);
/** The kinds of request each cold request made, table and platform, in the order they arrived: what its per-count floor makes. */
const seen: { kind: string; what: string }[] = [];

/** A pass-through in front of the table or the platform that counts requests and notes their kinds. */
async function countingProxy(target: string): Promise<{ url: string; take(): number; close(): void }> {
  const to = new URL(target);
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    const operation = req.headers['x-amz-target'];
    const noted = operation
      ? { kind: String(operation).replace(/^DynamoDB_\d+\./, ''), what: String(operation).replace(/^DynamoDB_\d+\./, '') }
      : { kind: `platform ${req.method}`, what: `${req.method} ${req.url}` };
    seen.push(noted);
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      noted.what += ` ${answer.statusCode}`;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => {
      const n = count;
      count = 0;
      return n;
    },
    close: () => server.close(),
  };
}

/**
 * The requests of a function's cold requests, table or platform: the usual
 * count, and any other with how often (a producer in the first minute of
 * every ten also reads the shards its job does not use).
 */
function tallied(counts: number[]): [number, number][] {
  const tally = new Map<number, number>();
  for (const n of counts) tally.set(n, (tally.get(n) ?? 0) + 1);
  return [...tally].sort((a, b) => b[1] - a[1]);
}

/** The count most of a function's cold requests made. */
const usual = (counts: number[]) => tallied(counts)[0]![0];

function requestCount(counts: number[], what: string): string {
  const [usual, ...others] = tallied(counts);
  const said = (n: number) => `${n} ${what}${n === 1 ? '' : 's'}`;
  return [said(usual![0]), ...others.map(([n, times]) => `(${said(n)} in ${times} of ${counts.length})`)].join(' ');
}

/** Where a bundle's input comes from: its package, a module's folder, or shared/ (the project's other files by top folder). */
function sourceOf(path: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  const own = /^(functions\/[^/]+|[^/:]+)\//.exec(path);
  return own ? own[1]! : path.replace(/^.*:/, '');
}

const signed = (ms: number) => `${ms < 0 ? '-' : '+'}${Math.abs(ms).toFixed(1)}`;

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface Sample {
  init: number;
  first: number;
  /** The child's own CPU time over init and first request, in ms: what other work on a shared machine moves least. */
  cpu: number;
  status: unknown;
  /** Why the request was refused, when it was (400, 422): a sign the bench's sample input needs a fixture. */
  refused?: string;
}

export interface ColdResult {
  rows: Row[];
  /** Bundle key -> bytes, for every function (floor and bare excluded). */
  sizes: Map<string, number>;
  floorBytes: number;
}

/** Builds every function with the floor, then times cold requests; answers the rows and the sizes. */
export async function coldRequestBench(): Promise<ColdResult> {
  const { routes } = await import('#functions/routes.js');
  const { jobs } = await import('#infra/jobs.js');
  const outdir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false, jobs: false });
  const proxy = await countingProxy(process.env.DYNAMODB_ENDPOINT!);
  const platform = await countingProxy(new URL(service.sandboxUrl!).origin);
  try {
    const { bundles, metafile } = await buildFunctions({
      routes,
      jobs,
      extraFiles: [AUTHORIZER_FILE, FLOOR_FILE, FLOOR_KINDS_FILE, BARE_FILE],
      outdir,
      sourceMaps: PROFILE_DIR !== undefined,
    });
    await writeServedFiles(routes, bundles);
    const outputOf = (dir: string) => Object.entries(metafile.outputs).find(([path]) => path.endsWith(`/${dir}/index.mjs`))![1];
    const bytesOf = (dir: string) => outputOf(dir).bytes;
    /** What a bundle carries beyond its floor's, by source (a package, a module's folder, shared/), largest first. */
    const codeBeyond = (key: string, floorKey: string) => {
      const [mine, floors] = [key, floorKey].map((dir) => {
        const by = new Map<string, number>();
        for (const [path, input] of Object.entries(outputOf(dir).inputs)) by.set(sourceOf(path), (by.get(sourceOf(path)) ?? 0) + input.bytesInOutput);
        return by;
      }) as [Map<string, number>, Map<string, number>];
      return [...mine]
        .map(([source, bytes]) => [source, bytes - (floors.get(source) ?? 0)] as const)
        .filter(([, bytes]) => bytes >= 512)
        .sort((a, b) => b[1] - a[1]);
    };
    const keyOf = (file: string) => bundles.get(file)!.split(/[\\/]/).pop()!;
    const only = process.env.BENCH_COLD_ONLY ? new RegExp(process.env.BENCH_COLD_ONLY) : null;
    const calls = (await invocations(routes, jobs, keyOf)).filter((c) => !only || only.test(c.key));
    const floor: Invocation = { key: keyOf(FLOOR_FILE), file: FLOOR_FILE, name: 'handler', event: { guild_id: GUILD } };
    const floorKinds: Invocation = { key: keyOf(FLOOR_KINDS_FILE), file: FLOOR_KINDS_FILE, name: 'handler', event: { guild_id: GUILD, requests: [] } };
    const bare: Invocation = { key: keyOf(BARE_FILE), file: BARE_FILE, name: 'handler', event: {} };

    const env = {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      // The SDK's own endpoint setting: functions and floor both take the Lambda path (no DYNAMODB_ENDPOINT).
      AWS_ENDPOINT_URL_DYNAMODB: proxy.url,
      TABLE_NAME: process.env.TABLE_NAME ?? '',
      SERVICE_TOKEN: 'bench-service-token',
      PLATFORM_API_BASE_URL: platform.url + new URL(service.sandboxUrl!).pathname,
      PLATFORM_BOT_TOKEN: BOT_TOKEN,
      // As local mode set them: the sandbox's socials sources and the loopback host they may be reached on, the
      // verification links and dashboard's public URL, and the OAuth2 client the dashboard signs members in with.
      ...Object.fromEntries(
        [...Object.keys(sourceUrls('')), 'SOURCE_ALLOWED_HOSTS', 'PUBLIC_BASE_URL', 'PLATFORM_CLIENT_ID', 'PLATFORM_CLIENT_SECRET'].map((name) => [
          name,
          process.env[name] ?? '',
        ]),
      ),
    };
    const samples = new Map<string, Sample[]>();
    const requests = new Map<string, number[]>();
    const platformCalls = new Map<string, number[]>();
    const kindsSeen = new Map<string, string[]>();
    const record = <T>(values: Map<string, T[]>, key: string, value: T) => (values.get(key) ?? values.set(key, []).get(key)!).push(value);
    // Each cold request acts for a guild of its own, so what another function did (enable a module, create a
    // record) never changes the path a function takes: every sample of a function answers the same way.
    let guilds = 0n;
    const coldRequest = async (call: Invocation) => {
      const file = pathToFileURL(join(outdir, call.key, 'index.mjs')).href;
      const guild = (BigInt(GUILD) + ++guilds).toString();
      const event = call.prepare ? await call.prepare(service, guild) : inGuild(call.event, guild);
      proxy.take();
      platform.take();
      seen.length = 0;
      const profileName = PROFILE_DIR && `${(call.label ?? call.key).replace(/[^\w.-]+/g, '_')}.${guilds}`;
      const profile = profileName ? ['--cpu-prof', '--cpu-prof-interval=50', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${profileName}.cpuprofile`] : [];
      const { stdout } = await run(process.execPath, [...profile, '--input-type=module', '-e', CHILD], {
        env: {
          ...env,
          BENCH_INVOKE: JSON.stringify({ file, name: call.name, event, profileTo: profileName && join(PROFILE_DIR!, `${profileName}.marks.json`) }),
        },
        encoding: 'utf8',
      });
      // The function's own log and metrics lines come first; the sample is the last line.
      const got = JSON.parse(stdout.slice(stdout.lastIndexOf('\n') + 1)) as Sample;
      const id = call.label ?? call.key;
      record(requests, id, proxy.take());
      record(platformCalls, id, platform.take());
      record(samples, id, got);
      record(kindsSeen, id, seen.map((s) => s.kind).join(','));
      if (TRACE) console.log(`${id}: ${seen.map((s) => s.what).join(' > ')}`);
    };

    // What a function's requests cost by themselves: the per-count floor making the same requests, of the same
    // kinds, in the same order, as the function's cold requests made most often (known from the first round;
    // timed, interleaved, in the others). A function making none, or one GetItem, has the SDK floor itself.
    const kindsMadeBy = (key: string) => {
      const made = kindsSeen.get(key)!;
      return made.find((k) => k.split(',').filter(Boolean).length === usual(requests.get(key)!) + usual(platformCalls.get(key)!)) ?? made[0]!;
    };
    const ownFloor = (kinds: string) => (kinds === '' || kinds === 'GetItem' ? null : `${floorKinds.key}:${kinds}`);
    const floorMaking = (kinds: string): Invocation => ({ ...floorKinds, label: ownFloor(kinds)!, event: { guild_id: GUILD, requests: kinds.split(',') } });
    const floorsForCounts = () => [...new Set(calls.map((c) => kindsMadeBy(c.key)).filter((k) => ownFloor(k) !== null))].map(floorMaking);

    for (let round = 0; round < ROUNDS; round++) {
      const order = shuffle(round === 0 ? calls : [...calls, ...floorsForCounts()]);
      for (let i = 0; i < order.length; i++) {
        if (i % FLOOR_EVERY === 0) await coldRequest(floor);
        await coldRequest(order[i]!);
      }
      await coldRequest(bare);
    }

    const total = (key: string) => median(samples.get(key)!.map((s) => s.init + s.first));
    const part = (key: string, which: 'init' | 'first' | 'cpu') => median(samples.get(key)!.map((s) => s[which]));
    const floorMs = total(floor.key);
    /** Against its per-count floor: what the function's own code costs beyond its requests (NaN with one round). */
    const overOwnRequests = (key: string) => {
      const kinds = kindsMadeBy(key);
      const own = ownFloor(kinds);
      const floorOf = own === null ? floorMs : samples.has(own) ? total(own) : Number.NaN;
      const cpuOf = own === null ? part(floor.key, 'cpu') : samples.has(own) ? part(own, 'cpu') : Number.NaN;
      return {
        kinds,
        n: kinds.split(',').filter(Boolean).length,
        floorKey: own ?? floor.key,
        floorBundle: own === null ? floor.key : floorKinds.key,
        floorMs: floorOf,
        ratio: total(key) / floorOf,
        cpu: part(key, 'cpu') / cpuOf,
      };
    };
    const measured = calls
      .map((c) => ({
        ...c,
        ms: total(c.key),
        ratio: total(c.key) / floorMs,
        own: overOwnRequests(c.key),
        status: samples.get(c.key)![0]!.status,
        requests: `${requestCount(requests.get(c.key)!, 'table request')} and ${requestCount(platformCalls.get(c.key)!, 'platform call')}`,
      }))
      // The headline: functions ranked by their ratio to the floor making as many requests of the same kinds.
      .sort((a, b) => b.own.ratio - a.own.ratio);
    const worst = measured[0]!;
    const within = measured.filter((m) => m.own.ratio <= COLD_RATIO_BUDGET).length;
    const byOneRead = [...measured].sort((a, b) => b.ratio - a.ratio);
    const rows: Row[] = [
      {
        section: 'cold request',
        measure: 'SDK floor (baseline): DynamoDBClient + DocumentClient + one GetItem',
        value: `${floorMs.toFixed(1)} ms`,
        note: `init ${part(floor.key, 'init').toFixed(1)} + first request ${part(floor.key, 'first').toFixed(1)} ms; ${kib(bytesOf(floor.key))}; median of ${samples.get(floor.key)!.length}, interleaved`,
      },
      {
        section: 'cold request',
        measure: 'bare Node handler (note)',
        value: `${total(bare.key).toFixed(1)} ms`,
        note: 'an empty handler in a fresh process, stdout opened before the clock, as in Lambda',
      },
      {
        section: 'cold request',
        measure: `functions within ${COLD_RATIO_BUDGET}x the floor making as many requests`,
        value: `${within} of ${measured.length}`,
        note: `each against the per-count floor (bench/floor-kinds.ts: the same client making the same requests, of the same kinds, in the same order; the SDK floor for none or one GetItem); median ${median(measured.map((m) => m.own.ratio)).toFixed(2)}x; median of ${ROUNDS - 1} cold requests each, fresh process each, interleaved`,
      },
      {
        section: 'cold request',
        measure: `functions within ${COLD_RATIO_BUDGET}x the floor making as many requests, by CPU time (note)`,
        value: `${measured.filter((m) => m.own.cpu <= COLD_RATIO_BUDGET).length} of ${measured.length}`,
        note: `the child's own CPU time over init and first request against its per-count floor's: waits for the table and the platform left out, and most of what other work on a shared machine adds; median ${median(measured.map((m) => m.own.cpu)).toFixed(2)}x, worst ${[...measured].sort((a, b) => b.own.cpu - a.own.cpu)[0]!.key} ${Math.max(...measured.map((m) => m.own.cpu)).toFixed(2)}x`,
      },
      {
        section: 'cold request',
        measure: `worst against its per-count floor: ${worst.key}`,
        value: `${worst.own.ratio.toFixed(2)}x`,
        note: `${worst.ms.toFixed(1)} ms against ${worst.own.floorMs.toFixed(1)} ms: ${worst.own.kinds || 'no requests'}`,
      },
    ];
    const overRuns = withEarlierRuns(measured.map((m) => ({ key: m.key, bundlePath: join(outdir, m.key, 'index.mjs'), ratio: m.own.ratio })));
    const runMedians = measured
      .map((m) => ({ key: m.key, ratio: median(overRuns.get(m.key)!), runs: overRuns.get(m.key)!.length }))
      .sort((a, b) => b.ratio - a.ratio);
    const runCounts = runMedians.map((m) => m.runs);
    rows.push(
      {
        section: 'cold request',
        measure: `functions within ${COLD_RATIO_BUDGET}x the floor making as many requests, median over runs`,
        value: `${runMedians.filter((m) => m.ratio <= COLD_RATIO_BUDGET).length} of ${runMedians.length}`,
        note: `each function's median over the runs of its current bundle on this clone, the last ${RUNS} at most (${Math.min(...runCounts)} to ${Math.max(...runCounts)} here); .bench/cold-history.json`,
      },
      {
        section: 'cold request',
        measure: `worst over runs: ${runMedians[0]!.key}`,
        value: `${runMedians[0]!.ratio.toFixed(2)}x its per-count floor`,
        note: `median of ${runMedians[0]!.runs} run${runMedians[0]!.runs === 1 ? '' : 's'}`,
      },
      {
        section: 'cold request',
        measure: `functions within ${COLD_RATIO_BUDGET}x the one-read floor (note)`,
        value: `${measured.filter((m) => m.ratio <= COLD_RATIO_BUDGET).length} of ${measured.length}`,
        note: `the earlier target, against the SDK floor whatever the requests; median ${median(measured.map((m) => m.ratio)).toFixed(2)}x, worst ${byOneRead[0]!.key} ${byOneRead[0]!.ratio.toFixed(2)}x`,
      },
    );
    // Where each function over the budget spends its time beyond its floor's: loading more code (init), or its
    // first request's own work (validation, the module's logic, the answer, the log line), and how much of it is CPU.
    const over = measured.filter((m) => m.own.ratio > COLD_RATIO_BUDGET);
    const beyond = (m: (typeof measured)[number], which: 'init' | 'first' | 'cpu') =>
      samples.has(m.own.floorKey) ? part(m.key, which) - part(m.own.floorKey, which) : Number.NaN;
    if (over.length > 0) {
      const initShare = median(over.map((m) => beyond(m, 'init') / (m.ms - m.own.floorMs)));
      rows.push({
        section: 'cold request',
        measure: `over ${COLD_RATIO_BUDGET}x: where the time beyond the floor goes`,
        value: `${over.length} functions`,
        note: `median ${(100 * initShare).toFixed(0)}% of it loading code the floor does not carry, the rest the first request's own work; each function's row says how much, which code, and its CPU time beyond the floor's`,
      });
    }
    for (const m of measured) {
      const excess =
        m.own.ratio > COLD_RATIO_BUDGET
          ? `; beyond the floor: init ${signed(beyond(m, 'init'))} ms loading ${codeBeyond(m.key, m.own.floorBundle)
              .slice(0, 4)
              .map(([source, bytes]) => `${source} ${kib(bytes)}`)
              .join(', ')}, first request ${signed(beyond(m, 'first'))} ms, CPU ${signed(beyond(m, 'cpu'))} ms`
          : '';
      rows.push({
        section: 'cold request',
        measure: m.key,
        value: `${m.own.ratio.toFixed(2)}x its floor`,
        note: `${m.ms.toFixed(1)} ms (init ${part(m.key, 'init').toFixed(1)}) against ${m.own.floorMs.toFixed(1)} ms making ${m.own.kinds ? m.own.kinds.replaceAll(',', ', ') : 'no requests (the SDK floor)'}; ${m.own.cpu.toFixed(2)}x its CPU time; ${m.ratio.toFixed(2)}x the one-read floor; ${kib(bytesOf(m.key))}; first answer ${m.status}${samples.get(m.key)![0]!.refused ? ` (${samples.get(m.key)![0]!.refused})` : ''} after ${m.requests}${excess}`,
      });
    }
    const sizes = new Map(calls.map((c) => [c.key, bytesOf(c.key)]));
    return { rows, sizes, floorBytes: bytesOf(floor.key) };
  } finally {
    proxy.close();
    platform.close();
    await service.stop();
    if (PROFILE_DIR) console.log(`the profiled bundles and their source maps are kept in ${outdir}`);
    else rmSync(outdir, { recursive: true, force: true });
  }
}
