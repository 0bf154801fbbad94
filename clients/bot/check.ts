/**
 * `npm run bot:check`: for every guild the bot is in (GET /users/@me/guilds),
 * for every module the guild enabled, what would stop the module from
 * working there (the service's `GET /modules/<module>/diagnostics`), or "no
 * problems". Exit code 1 when there is any problem or a read failed. The
 * configuration is the bot's own (config.ts).
 */
import { pathToFileURL } from 'node:url';
import type { BotConfig } from './bot.js';
import { configFromEnv } from './config.js';
import { MODULES } from './modules.js';

interface Problem {
  code: string;
  field: string | null;
  object_id: string | null;
  message: string;
}

type Answer = { ok: true; data: Record<string, unknown> } | { ok: false; reason: string };

async function getJson(url: string, authorization: string): Promise<Answer> {
  try {
    const res = await fetch(url, { headers: { authorization }, signal: AbortSignal.timeout(30_000) });
    const body = (await res.json().catch(() => null)) as { data?: Record<string, unknown>; error?: { message?: string }; message?: string } | unknown[] | null;
    if (res.ok) return { ok: true, data: Array.isArray(body) ? { list: body } : (body?.data ?? {}) };
    const reason = (!Array.isArray(body) && (body?.error?.message ?? body?.message)) || '';
    return { ok: false, reason: `${res.status} ${reason}`.trim() };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The guilds the bot is in, every page (the platform answers at most 200 a page, by ascending ID). */
async function guildsOfBot(config: BotConfig): Promise<{ id: string; name: string }[] | string> {
  const guilds: { id: string; name: string }[] = [];
  for (let after = '0'; ; ) {
    const page = await getJson(`${config.platformApiBaseUrl}/users/@me/guilds?limit=200&after=${after}`, `Bot ${config.botToken}`);
    if (!page.ok) return `cannot list the bot's guilds: ${page.reason}`;
    const list = page.data.list as { id: string; name: string }[];
    guilds.push(...list);
    if (list.length < 200) return guilds;
    after = list.at(-1)!.id;
  }
}

/** Prints the problems of every enabled module of every guild; answers the exit code (1 when any problem or failure). */
export async function check(config: BotConfig, print: (line: string) => void): Promise<number> {
  const guilds = await guildsOfBot(config);
  if (typeof guilds === 'string') {
    print(guilds);
    return 1;
  }
  const service = (path: string, guildId: string) => getJson(`${config.serviceUrl}${path}?guild_id=${guildId}`, `Bearer ${config.serviceToken}`);
  let failing = false;
  if (guilds.length === 0) print('The bot is in no guild.');
  for (const guild of guilds) {
    print(`Guild ${guild.name} (${guild.id})`);
    let enabled = 0;
    for (const module of MODULES) {
      const status = await service(`/modules/${module}/status`, guild.id);
      if (!status.ok) {
        print(`  ${module}: cannot read its status: ${status.reason}`);
        failing = true;
        continue;
      }
      if (status.data.status !== true) continue;
      enabled++;
      const answer = await service(`/modules/${module}/diagnostics`, guild.id);
      if (!answer.ok) {
        print(`  ${module}: cannot diagnose: ${answer.reason}`);
        failing = true;
        continue;
      }
      const problems = answer.data.problems as Problem[];
      if (problems.length === 0) print(`  ${module}: no problems`);
      for (const p of problems) print(`  ${module}: ${p.code}: ${p.message}`);
      if (problems.length > 0) failing = true;
    }
    if (enabled === 0) print('  no module enabled');
  }
  return failing ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const config = configFromEnv(process.env);
  if ('problems' in config) {
    console.error(`Cannot check:\n  ${config.problems.join('\n  ')}`);
    process.exit(1);
  }
  process.exit(await check(config, (line) => console.log(line)));
}
