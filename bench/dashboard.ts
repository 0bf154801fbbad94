/**
 * Dashboard figures (behaviour §19): what a page costs the admin's browser
 * (requests and bytes, as Chromium loads it from local mode, signed in
 * through the sandbox's OAuth2) and the service (the API requests its script
 * makes). The cold start of each dashboard function is in the cold section
 * (bench/cold.ts times every route's function, `dashboard.*` among them).
 * Without Debian's chromium the section says so and measures nothing. Run
 * alone with `npx tsx bench/dashboard.ts`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { type Row, kib, printRows } from './table.js';

const SECTION = 'dashboard';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * What one page load fetched: every request, the bytes of each answer's body
 * once decoded, and the bytes that crossed the wire (local mode gzips answers
 * of 1 KiB and more, as API Gateway does in AWS; an answer the browser kept
 * costs none, a 304 only its headers).
 */
interface Load {
  requests: number;
  api: number;
  bytes: number;
  wire: number;
  notModified: number;
  /** Answers the browser took from its cache, no request sent (Chromium reports their body size as minus their headers'). */
  cached: number;
}

async function signedInCookie(service: LocalService, guild: string, member: string): Promise<string> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const control = (method: string, path: string, body: unknown) =>
    fetch(`${origin}/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await control('PUT', `/guilds/${guild}`, { name: 'Bench guild' });
  await control('POST', `/guilds/${guild}/members/${member}/join`, { username: 'admin' });
  await control('PUT', `/guilds/${guild}/members/${member}/permissions`, { permissions: String(1 << 5) });
  const login = await fetch(`${service.url}/dashboard/login`, { redirect: 'manual' });
  const authorize = new URL(login.headers.get('location')!);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('user_id', member);
  form.set('decision', 'approve');
  const approved = await fetch(new URL('/oauth2/authorize', authorize), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const back = await fetch(approved.headers.get('location')!, { redirect: 'manual', headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]! } });
  return back.headers.get('set-cookie')!.split(';')[0]!;
}

export async function runDashboardBench(): Promise<Row[]> {
  if (!existsSync(CHROMIUM)) return [{ section: SECTION, measure: 'page weight', value: 'not measured', note: `no browser at ${CHROMIUM}` }];
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false, guildKeyRate: 1000 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const guild = '9434567890123456789';
    const cookie = await signedInCookie(service, guild, '9534567890123456789');
    const [name, value] = cookie.split('=') as [string, string];
    const context = await browser.newContext();
    await context.addCookies([{ name, value, url: service.url }]);
    const page = await context.newPage();
    const load = async (action: () => Promise<unknown>): Promise<Load> => {
      const seen: Load = { requests: 0, api: 0, bytes: 0, wire: 0, notModified: 0, cached: 0 };
      const bodies: Promise<void>[] = [];
      const onResponse = (response: import('playwright-core').Response) => {
        seen.requests++;
        if (new URL(response.url()).pathname.startsWith('/modules/')) seen.api++;
        if (response.status() === 304) seen.notModified++;
        bodies.push(
          Promise.all([response.body().catch(() => Buffer.alloc(0)), response.request().sizes()]).then(
            ([body, sizes]) => {
              seen.bytes += body.length;
              if (sizes.responseBodySize < 0) seen.cached++;
              else seen.wire += sizes.responseBodySize;
            },
            () => undefined,
          ),
        );
      };
      page.on('response', onResponse);
      await action();
      await page.waitForLoadState('networkidle');
      await Promise.all(bodies);
      page.off('response', onResponse);
      return seen;
    };
    const list = await load(() => page.goto(`${service.url}/dashboard`));
    const guildPage = await load(async () => {
      await page.goto(`${service.url}/dashboard/guilds/${guild}`);
      await page.locator('#module-tags .state').waitFor();
    });
    // Within the document's lifetime the browser reads it from its cache: what a second guild page costs.
    const again = await load(async () => {
      await page.goto(`${service.url}/dashboard/guilds/${guild}`);
      await page.locator('#module-tags .state').waitFor();
    });
    const opened = await load(async () => {
      await page.locator('#module-polls button', { hasText: 'Enable' }).click();
      await page.locator('#module-polls .state', { hasText: 'Enabled' }).waitFor();
      await page.locator('#module-polls summary').click();
      await page.locator('#module-polls form').first().waitFor();
      await page.locator('#module-polls .list p, #module-polls .list table').first().waitFor();
    });
    const row = (measure: string, l: Load, note: string): Row => ({
      section: SECTION,
      measure,
      value: `${l.requests - l.cached} requests, ${kib(l.wire)} transferred`,
      note: `${kib(l.bytes)} decoded; ${l.api} of them API calls${l.notModified ? `, ${l.notModified} answered 304` : ''}${l.cached ? `, ${l.cached} more from the browser cache` : ''}; ${note}`,
    });
    return [
      row('guild list page', list, 'server-rendered HTML and its style sheet'),
      row('guild page, first load', guildPage, 'HTML, style sheet, script, /openapi.json (gzipped) and one state read per module'),
      row('guild page, again within 5 minutes', again, 'the style sheet, script and /openapi.json come from the browser cache'),
      row('a module enabled and opened (polls)', opened, 'enable, state, settings, its list and what they fetch'),
    ];
  } finally {
    await browser.close();
    await service.stop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) printRows(await runDashboardBench());
