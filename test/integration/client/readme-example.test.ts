/**
 * The typed client's README example, as a reader would use it: the first
 * TypeScript block of clients/typescript/README.md, in a fresh project laid
 * out as the README says (`guild-modules/` holding `index.ts` and
 * `schema.d.ts`, `"type": "module"`), type-checked as written, then run
 * against local mode on loopback. Only the base URL is pointed at this test's
 * service (the README's is local mode's default port).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN, type TestService, ok, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../../..');
const readme = readFileSync(join(repo, 'clients/typescript/README.md'), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const README_BASE_URL = "'http://127.0.0.1:3000'";

let service: TestService;
let project: string;

/** A fresh project: the client copied where the example imports it from, the repository's packages, and `type` as given. */
function freshProject(type: 'module' | 'commonjs'): string {
  const dir = mkdtempSync(join(tmpdir(), `client-readme-${type}-`));
  mkdirSync(join(dir, 'guild-modules'));
  for (const file of ['index.ts', 'schema.d.ts']) copyFileSync(join(repo, 'clients/typescript', file), join(dir, 'guild-modules', file));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bot', private: true, type }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      include: ['*.ts'],
    }),
  );
  return dir;
}

const runExample = (dir: string, source: string) => {
  writeFileSync(join(dir, 'main.ts'), source);
  return run(join(repo, 'node_modules/.bin/tsx'), ['main.ts'], { cwd: dir, env: { ...process.env, SERVICE_TOKEN }, timeout: 60_000 });
};

beforeAll(async () => {
  service = await startTestService();
  project = freshProject('module');
});
afterAll(async () => {
  await service.stop();
  rmSync(project, { recursive: true, force: true });
});

describe("the typed client's README example", () => {
  it('is there, and says the project must be an ES module', () => {
    expect(example).toContain("from './guild-modules/index.js'");
    expect(example).toContain(README_BASE_URL);
    expect(readme).toContain('"type": "module"');
  });

  it('type-checks as written', async () => {
    writeFileSync(join(project, 'main.ts'), example);
    const checked = await run(join(repo, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: project, timeout: 120_000 }).catch((error) => error);
    expect(`${checked.stdout ?? ''}${checked.stderr ?? ''}`).toBe('');
  }, 150_000);

  it('runs in an ES module project and makes the panel it shows', async () => {
    const guild = '1234567890123456789';
    await sandboxOf(service).channelIn(guild, '1234567890123456790');
    const { stdout } = await runExample(project, example.replace(README_BASE_URL, `'${service.url}'`));
    const panels = ok(await service.call('GET', '/modules/reactionroles/panels', { query: { guild_id: guild } })).panels as {
      panel_id: string;
      panel_type: string;
    }[];
    expect(panels).toHaveLength(1);
    expect(stdout).toContain(panels[0]!.panel_id);
    expect(stdout).toContain("[ 'emoji' ]");
  }, 90_000);

  it('stops at top-level await in a CommonJS project, as the README warns', async () => {
    const cjs = freshProject('commonjs');
    try {
      const failed = await runExample(cjs, example.replace(README_BASE_URL, `'${service.url}'`)).then(
        () => null,
        (error: { stderr: string }) => error,
      );
      expect(failed?.stderr).toContain('Top-level await is currently not supported with the "cjs" output format');
    } finally {
      rmSync(cjs, { recursive: true, force: true });
    }
  }, 90_000);
});
