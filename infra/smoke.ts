/**
 * A read-mostly tour of a running service, for any deployment:
 *
 *   SERVICE_TOKEN=... npm run smoke -- <base URL> --guild <scratch guild ID> [--module tags]
 *
 * Health, readiness, the OpenAPI document and its page, a module's home,
 * credentials refused and accepted, then the module's enable, status and
 * disable on a scratch guild (the operator's: enabling writes its default
 * settings), left as it was found, and the parked-work list. One line per
 * step, PASS or FAIL; the exit code is 1 when any step failed, 2 when the
 * command is wrong. The guild may also come from `SMOKE_GUILD_ID`.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const USAGE = 'Usage: SERVICE_TOKEN=<token> npm run smoke -- <base URL> --guild <scratch guild ID> [--module <module>]';

/** A JSON answer as far as the tour reads it. */
interface Json {
  data?: { status?: unknown; message?: unknown; total?: unknown };
  error?: { message?: string };
  openapi?: unknown;
  paths?: Record<string, unknown>;
}

interface Answer {
  status: number;
  type: string;
  /** The parsed JSON answer, or `{}` when it is not JSON. */
  body: Json;
  text: string;
}

/** One step: its name, and what it checks, throwing what went wrong; answers a short detail. */
interface Step {
  name: string;
  run: () => Promise<string>;
}

export interface SmokeOptions {
  baseUrl: string;
  token: string;
  guild: string;
  module: string;
  /** Where lines go (default stdout). */
  print?: (line: string) => void;
}

function client(baseUrl: string, token: string) {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method: string, path: string, options: { body?: unknown; auth?: boolean } = {}): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (options.auth !== false) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    let body: Json = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed as Json;
    } catch {
      // Not JSON (the docs page): the text is what there is.
    }
    return { status: res.status, type, body, text };
  };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    const reason = answer.body.error?.message ?? answer.text.slice(0, 120);
    throw new Error(`${what} answered ${answer.status}, expected ${status}${reason ? `: ${reason}` : ''}`);
  }
}

/** The tour as steps; `state` carries what one step learns for a later one. */
function steps(options: SmokeOptions): Step[] {
  const call = client(options.baseUrl, options.token);
  const { guild, module } = options;
  const modulePath = `/modules/${module}`;
  const state = { wasEnabled: null as boolean | null };
  const status = async () => {
    const answer = await call('GET', `${modulePath}/status?guild_id=${guild}`);
    expectStatus(answer, 200, `GET ${modulePath}/status`);
    if (typeof answer.body.data?.status !== 'boolean') throw new Error(`GET ${modulePath}/status answered no data.status`);
    return answer.body.data.status;
  };
  const toggle = async (action: 'enable' | 'disable') => {
    const answer = await call('POST', `${modulePath}/${action}`, { body: { guild_id: guild } });
    expectStatus(answer, 200, `POST ${modulePath}/${action}`);
  };
  return [
    {
      name: 'livez',
      run: async () => {
        const answer = await call('GET', '/livez', { auth: false });
        expectStatus(answer, 200, 'GET /livez');
        if (answer.body.data?.status !== 'ok') throw new Error('GET /livez did not answer data.status "ok"');
        return 'up';
      },
    },
    {
      name: 'readyz',
      run: async () => {
        expectStatus(await call('GET', '/readyz', { auth: false }), 200, 'GET /readyz');
        return 'table reachable';
      },
    },
    {
      name: 'openapi',
      run: async () => {
        const answer = await call('GET', '/openapi.json', { auth: false });
        expectStatus(answer, 200, 'GET /openapi.json');
        const paths = Object.keys(answer.body.paths ?? {});
        if (!String(answer.body.openapi).startsWith('3.1') || paths.length === 0)
          throw new Error('GET /openapi.json is not an OpenAPI 3.1 document with paths');
        if (!paths.some((path) => path.startsWith(`${modulePath}/`))) throw new Error(`the document has no path of module ${module}`);
        return `OpenAPI ${answer.body.openapi}, ${paths.length} paths`;
      },
    },
    {
      name: 'docs',
      run: async () => {
        const answer = await call('GET', '/docs', { auth: false });
        expectStatus(answer, 200, 'GET /docs');
        if (!answer.type.includes('text/html')) throw new Error(`GET /docs answered ${answer.type || 'no content type'}, not a page`);
        return 'page served';
      },
    },
    {
      name: 'home',
      run: async () => {
        const answer = await call('GET', `${modulePath}/`, { auth: false });
        expectStatus(answer, 200, `GET ${modulePath}/`);
        return String(answer.body.data?.message ?? '');
      },
    },
    {
      name: 'no token refused',
      run: async () => {
        expectStatus(await call('GET', `${modulePath}/status?guild_id=${guild}`, { auth: false }), 401, `GET ${modulePath}/status without a token`);
        return '401';
      },
    },
    {
      name: 'status',
      run: async () => {
        state.wasEnabled = await status();
        return `${module} is ${state.wasEnabled ? 'enabled' : 'disabled'} for guild ${guild}`;
      },
    },
    {
      name: 'enable',
      run: async () => {
        // Found enabled: turn it off first, so the enable is exercised; the last step puts it back.
        if (state.wasEnabled ?? (await status())) await toggle('disable');
        await toggle('enable');
        if (!(await status())) throw new Error('status does not say enabled after enable');
        return 'enabled, status agrees';
      },
    },
    {
      name: 'disable',
      run: async () => {
        await toggle('disable');
        if (await status()) throw new Error('status does not say disabled after disable');
        return 'disabled, status agrees';
      },
    },
    {
      name: 'restore',
      run: async () => {
        if (state.wasEnabled) await toggle('enable');
        if ((await status()) !== Boolean(state.wasEnabled)) throw new Error(`could not leave ${module} ${state.wasEnabled ? 'enabled' : 'disabled'} as found`);
        return `left ${state.wasEnabled ? 'enabled' : 'disabled'}, as found`;
      },
    },
    {
      name: 'parked work',
      run: async () => {
        const answer = await call('GET', '/jobs/parked?page_size=1');
        expectStatus(answer, 200, 'GET /jobs/parked');
        const total = Number(answer.body.data?.total);
        return total === 0 ? 'nothing parked' : `${total} parked (GET /jobs/parked lists them)`;
      },
    },
  ];
}

/** Runs the tour; answers how many steps failed. */
export async function smoke(options: SmokeOptions): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  print(`smoke: ${options.baseUrl} (module ${options.module}, scratch guild ${options.guild})`);
  let failures = 0;
  const all = steps(options);
  for (const step of all) {
    const started = performance.now();
    try {
      const detail = await step.run();
      print(`PASS  ${step.name.padEnd(18)} ${detail} (${Math.round(performance.now() - started)} ms)`);
    } catch (error) {
      failures++;
      print(`FAIL  ${step.name.padEnd(18)} ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  print(`smoke: ${all.length - failures} passed, ${failures} failed`);
  return failures;
}

/** The command line, checked; a wrong one is a usage error naming what is wrong. */
export function smokeOptions(argv: readonly string[], env: NodeJS.ProcessEnv): SmokeOptions | string {
  let parsed: ReturnType<typeof parseArgs<{ options: { guild: { type: 'string' }; module: { type: 'string' } }; allowPositionals: true; args: string[] }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: { guild: { type: 'string' }, module: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    return (error as Error).message;
  }
  const [baseUrl, ...extra] = parsed.positionals;
  if (!baseUrl || extra.length > 0) return 'give exactly one base URL, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com/v1';
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) return `the base URL must be an http(s) URL, not ${JSON.stringify(baseUrl)}`;
  const token = env.SERVICE_TOKEN ?? '';
  if (token === '') return 'set SERVICE_TOKEN to the service token (Secrets Manager: the ServiceTokenSecretArn output; local mode prints it at first start)';
  const guild = parsed.values.guild ?? env.SMOKE_GUILD_ID ?? '';
  if (!/^\d{17,20}$/.test(guild)) return `give a scratch guild ID (a snowflake, 17 to 20 digits) with --guild or SMOKE_GUILD_ID, not ${JSON.stringify(guild)}`;
  const module = parsed.values.module ?? 'tags';
  if (!/^[a-z-]+$/.test(module)) return `--module must be a module's path segment such as tags or polls, not ${JSON.stringify(module)}`;
  return { baseUrl, token, guild, module };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = smokeOptions(process.argv.slice(2), process.env);
  if (typeof options === 'string') {
    console.error(`smoke: ${options}\n${USAGE}`);
    process.exit(2);
  }
  process.exit((await smoke(options)) > 0 ? 1 : 0);
}
