/**
 * Welcoming figures: DynamoDB requests and platform calls per join, the
 * delay from a timed role's due time to its grant, and the member pages a
 * catch-up of a 10,000-member guild reads. Run alone with
 * `npx tsx bench/welcoming.ts`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onWorkDone } from '#shared/scheduler/index.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { countDynamoRequests, handlerRequests, ofGuild } from './requests.js';
import { type Row, median, printRows } from './table.js';

const SECTION = 'welcoming';
const BASE = '/modules/welcoming';

function client(service: LocalService) {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const call = async (method: string, path: string, body?: unknown, member?: string) => {
    const res = await fetch(service.url + path, {
      method,
      headers: { authorization: `Bearer ${service.serviceToken}`, 'content-type': 'application/json', ...(member ? { 'x-acting-user-id': member } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/_sandbox${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status}`);
    return res.status === 204 ? null : res.json();
  };
  const platformCalls = async () => ((await control('GET', '/requests')) as unknown[]).length;
  return { call, control, platformCalls };
}

/** Requests and platform calls of each check a join makes, and of each grant later. */
async function perJoin(service: LocalService): Promise<Row[]> {
  const { call, control, platformCalls } = client(service);
  const counter = countDynamoRequests();
  const guild = '4234567890123456789';
  const roles = ['11', '12', '13', '14'];
  await ofGuild(service, guild, { channels: ['5234567890123456789'], roles });
  await call('POST', `${BASE}/enable`, { guild_id: guild });
  await call('POST', `${BASE}/responses`, { guild_id: guild, response_type: 1, is_embed: false, content: 'Welcome <user_mention> to <server_name>!' });
  await call('POST', `${BASE}/responses`, { guild_id: guild, response_type: 2, is_embed: false, content: 'Welcome <user_mention>!' });
  for (const role of roles.slice(2)) await call('POST', `${BASE}/timedroles`, { guild_id: guild, role_id: role, add_after: 3600 });
  await call('PUT', `${BASE}/settings`, {
    guild_id: guild,
    welcome_messages_dm_enabled: true,
    welcome_messages_enabled: true,
    welcome_messages_channel: '5234567890123456789',
    autorole_enabled: true,
    autorole_role_ids: roles.slice(0, 2),
    timedroles_enabled: true,
  });
  const member = '6234567890123456789';
  await control('POST', `/guilds/${guild}/members/${member}/join`, {});

  const rows: Row[] = [];
  // Floors: a Get (the module state) and a Query cannot share a request; a grant's due work could ride in its grant item.
  const checks: [string, string, number, string][] = [
    ['welcome/dm', 'DM welcome', 2, 'module state, responses (1 query); platform: open the DM, post, guild (for <server_name>)'],
    ['welcome/channel', 'channel welcome', 2, 'module state, responses; platform: post (no variable needs a lookup)'],
    [
      'role/on-join',
      'autoroles (2) and timed roles (2)',
      4,
      'module state, timed roles, per timed role a grant item and its due item; platform: one PUT per autorole',
    ],
  ];
  let dynamo = 0;
  let calls = 0;
  let floors = 0;
  for (const [path, what, floor, note] of checks) {
    counter.take();
    const before = await platformCalls();
    await call('POST', `${BASE}/check/${path}`, { guild_id: guild }, member);
    const requests = handlerRequests(counter.take());
    const platform = (await platformCalls()) - before;
    dynamo += requests;
    calls += platform;
    floors += floor;
    rows.push({ section: SECTION, measure: `join: ${what}`, value: `${requests} DynamoDB (floor ${floor}), ${platform} platform`, note });
  }
  rows.push({
    section: SECTION,
    measure: 'join: all four checks',
    value: `${dynamo} DynamoDB (floor ${floors}), ${calls} platform`,
    note: 'timed roles are granted later: 1 platform call each',
  });
  counter.take();
  await call('POST', `${BASE}/check/leave/channel`, { guild_id: guild }, member);
  rows.push({
    section: SECTION,
    measure: 'leave (2 pending timed roles cancelled, no leave message)',
    value: `${handlerRequests(counter.take())} DynamoDB (floor 3)`,
    note: 'module state, the member grants (1 query), 1 batch delete of the grants and their due work',
  });
  counter.stop();
  return rows;
}

/** Due time to grant, for timed roles of 2 to 5 s. */
async function grantDelay(service: LocalService): Promise<Row[]> {
  const { call, control } = client(service);
  const guild = '7234567890123456789';
  const lags: number[] = [];
  const stop = onWorkDone((done) => {
    if (done.job === 'welcoming.timedrole-grant') lags.push(done.doneAt - done.dueAt);
  });
  const MEMBERS = 30;
  try {
    await call('POST', `${BASE}/enable`, { guild_id: guild });
    await call('PUT', `${BASE}/settings`, { guild_id: guild, timedroles_enabled: true });
    await ofGuild(service, guild, { roles: ['21', '22', '23', '24'] });
    for (let i = 0; i < 4; i++) await call('POST', `${BASE}/timedroles`, { guild_id: guild, role_id: String(21 + i), add_after: 2 + i });
    for (let i = 0; i < MEMBERS; i++) {
      const member = String(8234567890123456000n + BigInt(i));
      await control('POST', `/guilds/${guild}/members/${member}/join`, {});
      await call('POST', `${BASE}/check/role/on-join`, { guild_id: guild }, member);
    }
    const deadline = Date.now() + 30_000;
    while (lags.length < MEMBERS * 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  } finally {
    stop();
  }
  if (lags.length === 0) return [{ section: SECTION, measure: 'timed role delay', value: 'n/a', note: 'no grant within 30 s' }];
  return [
    { section: SECTION, measure: 'timed role, due time to grant (median)', value: `${median(lags).toFixed(0)} ms`, note: `${lags.length} grants of 2 to 5 s` },
    { section: SECTION, measure: 'timed role, due time to grant (worst)', value: `${Math.max(...lags).toFixed(0)} ms`, note: 'contract: within 5 s' },
  ];
}

/** The member pages one catch-up reads in a guild of 10,000 members with one timed role. */
async function catchUpPages(service: LocalService): Promise<Row[]> {
  const { call, control } = client(service);
  const guild = '9234567890123456789';
  const role = '31';
  const MEMBERS = 10_000;
  const joinedAt = new Date(Date.now() - 7200_000).toISOString();
  for (let i = 0; i < MEMBERS; i += 200) {
    await Promise.all(
      Array.from({ length: 200 }, (_, j) => {
        const n = i + j;
        // Every 1000th member lacks the role: the catch-up owes it to them.
        return control('POST', `/guilds/${guild}/members/${9234567890123000000n + BigInt(n)}/join`, {
          joined_at: joinedAt,
          roles: n % 1000 === 0 ? [] : [role],
        });
      }),
    );
  }
  await call('POST', `${BASE}/enable`, { guild_id: guild });
  await call('PUT', `${BASE}/settings`, { guild_id: guild, timedroles_enabled: true });
  await ofGuild(service, guild, { roles: [role] });
  await call('POST', `${BASE}/timedroles`, { guild_id: guild, role_id: role, add_after: 3600 });
  await control('DELETE', '/requests');
  const started = Date.now();
  const { message } = (await call('POST', `${BASE}/check/role/timed`, { guild_id: guild })) as { message: string };
  const took = Date.now() - started;
  const pages = ((await control('GET', '/requests')) as { method: string; path: string }[]).filter(
    (r) => r.method === 'GET' && r.path === `/guilds/${guild}/members`,
  ).length;
  return [
    {
      section: SECTION,
      measure: 'catch-up of a 10,000-member guild: member pages',
      value: String(pages),
      note: `platform floor 10 (1000 a page); ${took} ms; ${message.split(':')[1]?.trim() ?? message}`,
    },
  ];
}

/** The welcoming rows; starts (and stops) its own local mode. */
export async function runWelcomingBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  try {
    return [...(await perJoin(service)), ...(await grantDelay(service)), ...(await catchUpPages(service))];
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runWelcomingBench());
}
