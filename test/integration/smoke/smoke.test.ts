import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smokeOptions } from '#infra/smoke.js';
import { SERVICE_TOKEN, snowflake, type TestService, startTestService } from '#test/helpers/local.js';

const run = promisify(execFile);

/** `npm run smoke -- <args>` as an operator runs it; answers its exit code and output. */
async function smoke(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'infra/smoke.ts', ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('npm run smoke against local mode', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  it('passes every step, exits 0, and leaves the module as it found it', async () => {
    const guild = snowflake();
    const { code, out } = await smoke([service.url, '--guild', guild], { SERVICE_TOKEN });
    const lines = out.trim().split('\n');
    const steps = lines.filter((line) => /^(PASS|FAIL) /.test(line));
    expect(steps.map((line) => line.split(/\s+/)[0])).toEqual(steps.map(() => 'PASS'));
    expect(steps.map((line) => line.slice(6, 24).trim())).toEqual([
      'livez',
      'readyz',
      'openapi',
      'docs',
      'home',
      'no token refused',
      'status',
      'enable',
      'disable',
      'restore',
      'parked work',
    ]);
    expect(lines.at(-1)).toBe('smoke: 11 passed, 0 failed');
    expect(code).toBe(0);
    const status = await service.call('GET', '/modules/tags/status', { query: { guild_id: guild } });
    expect(status.body.data.status).toBe(false);
  }, 90_000);

  it('leaves a module found enabled enabled', async () => {
    const guild = snowflake();
    expect((await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild } })).status).toBe(200);
    const { code, out } = await smoke([service.url, '--guild', guild, '--module', 'polls'], { SERVICE_TOKEN });
    expect(out).toContain('PASS  restore            left enabled, as found');
    expect(code).toBe(0);
    expect((await service.call('GET', '/modules/polls/status', { query: { guild_id: guild } })).body.data.status).toBe(true);
  }, 90_000);

  it('fails the steps that need the token when it is wrong, and exits 1', async () => {
    const { code, out } = await smoke([service.url], { SERVICE_TOKEN: 'not-the-token', SMOKE_GUILD_ID: snowflake() });
    expect(out).toMatch(/^PASS {2}livez/m);
    expect(out).toMatch(/^FAIL {2}status\s+GET \/modules\/tags\/status answered 401, expected 200/m);
    expect(out).toMatch(/^smoke: \d+ passed, [1-9]\d* failed$/m);
    expect(code).toBe(1);
  }, 90_000);

  it('refuses a wrong command line, saying what is wrong (exit 2)', async () => {
    const env = { SERVICE_TOKEN: 'x' };
    expect(smokeOptions([], env)).toContain('give exactly one base URL');
    expect(smokeOptions(['ftp://host', '--guild', snowflake()], env)).toContain('must be an http(s) URL');
    expect(smokeOptions(['http://127.0.0.1:1'], env)).toContain('scratch guild ID');
    expect(smokeOptions(['http://127.0.0.1:1', '--guild', snowflake()], {})).toContain('set SERVICE_TOKEN');
    expect(smokeOptions(['http://127.0.0.1:1', '--guild', '123', '--module', 'tags'], env)).toContain('not "123"');
    expect(smokeOptions(['http://127.0.0.1:1', '--guild', '12345678901234567'], env)).toMatchObject({ module: 'tags', guild: '12345678901234567' });
    const { code, out } = await smoke(['http://127.0.0.1:1'], { SERVICE_TOKEN: 'x', SMOKE_GUILD_ID: '' });
    expect(code).toBe(2);
    expect(out).toContain('Usage: SERVICE_TOKEN=<token> npm run smoke');
  }, 60_000);
});
