import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunctions, buildOptionsFromArgs } from '#infra/build.js';
import { bundleKey, readBuildInfo } from '#infra/bundles.js';

// Inside the repository so that bundled imports resolve from its node_modules.
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let root: string;

const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

describe('build (fake route list)', () => {
  beforeAll(() => {
    mkdirSync(join(repo, 'node_modules', '.cache'), { recursive: true });
    root = mkdtempSync(join(repo, 'node_modules', '.cache', 'gms-build-test-'));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the file written is source whose template literal is the point.
    write('functions/shared/greet.ts', 'export const greet = (name: string): string => `hello ${name}`;\n');
    write(
      'functions/a/one.ts',
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { greet } from '../shared/greet.js';\nexport const client = () => new DynamoDBClient({});\nexport const handler = async () => ({ statusCode: 200, body: greet('one') });\n",
    );
    write('functions/a/two.ts', "export const handler = async () => ({ statusCode: 200, body: 'two' });\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const routes = [{ file: 'functions/a/one.ts' }, { file: 'functions/a/one.ts' }, { file: 'functions/a/two.ts' }];

  it('writes one runnable ESM bundle per distinct file, keyed by file', async () => {
    const { bundles, info } = await buildFunctions({ routes, root, outdir: 'dist/functions' });
    expect([...bundles.keys()].sort()).toEqual(['functions/a/one.ts', 'functions/a/two.ts']);
    const one = join(root, 'dist/functions/a.one/index.mjs');
    expect(existsSync(one)).toBe(true);
    expect(existsSync(`${one}.map`)).toBe(false);
    expect(readBuildInfo(join(root, 'dist/functions'))).toEqual(info);
    expect(info).toEqual({ sdk: 'bundle', sourceMaps: false });
    const text = readFileSync(one, 'utf8');
    expect(text).toContain('createRequire');
    expect(text).not.toMatch(/from\s*"@aws-sdk\//);
    const loaded = (await import(pathToFileURL(one).href)) as { handler: () => Promise<{ body: string }> };
    expect((await loaded.handler()).body).toBe('hello one');
  });

  it('leaves the AWS SDK to the runtime with sdk=external, and writes maps on request', async () => {
    await buildFunctions({ routes, root, outdir: 'dist/external', sdk: 'external', sourceMaps: true });
    const one = join(root, 'dist/external/a.one/index.mjs');
    expect(readFileSync(one, 'utf8')).toMatch(/from\s*"@aws-sdk\/client-dynamodb"/);
    expect(existsSync(`${one}.map`)).toBe(true);
    expect(readBuildInfo(join(root, 'dist/external'))).toEqual({ sdk: 'external', sourceMaps: true });
  });

  it('loads the web streams only when code first touches them (middy imports them for response streaming)', async () => {
    write(
      'functions/a/streams.ts',
      "import { ReadableStream } from 'node:stream/web';\nexport const handler = async () => ({ statusCode: 200, body: String(new ReadableStream() instanceof ReadableStream) });\n",
    );
    await buildFunctions({ routes: [{ file: 'functions/a/streams.ts' }], root, outdir: 'dist/streams' });
    const bundle = pathToFileURL(join(root, 'dist/streams/a.streams/index.mjs')).href;
    // A fresh process: the test runner itself has loaded the web streams long ago.
    const script = `const loaded = () => process.moduleLoadList.some((m) => m.includes('webstreams/readablestream'));
      const { handler } = await import(${JSON.stringify(bundle)});
      const atLoad = loaded();
      const { body } = await handler();
      console.log(JSON.stringify({ atLoad, body, afterUse: loaded() }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ atLoad: false, body: 'true', afterUse: true });
  });

  it('bundles a route naming an export of its file as that export alone, called as `handler`', async () => {
    // What the other export imports is left out too, even a module that does something when loaded.
    write(
      'functions/a/loud.ts',
      "(globalThis as Record<string, unknown>).loud = 'the loud module ran';\nexport const shout = (s: string) => s.toUpperCase();\n",
    );
    write(
      'functions/a/pair.ts',
      "import { shout } from './loud.js';\nexport const first = async () => ({ statusCode: 200, body: 'first only' });\nexport const second = async () => ({ statusCode: 200, body: shout('second was bundled') });\n",
    );
    const { bundles } = await buildFunctions({ routes: [{ file: 'functions/a/pair.ts', handler: 'first' }], root, outdir: 'dist/pair' });
    expect([...bundles.keys()]).toEqual(['functions/a/pair.ts#first']);
    const bundle = join(root, 'dist/pair/a.pair.first/index.mjs');
    const text = readFileSync(bundle, 'utf8');
    expect([text.includes('second was bundled'), text.includes('the loud module ran')]).toEqual([false, false]);
    const loaded = (await import(pathToFileURL(bundle).href)) as { handler: () => Promise<{ body: string }> };
    expect((await loaded.handler()).body).toBe('first only');
  });

  it('fails listing every missing handler file', async () => {
    await expect(
      buildFunctions({ routes: [...routes, { file: 'functions/a/nope.ts' }, { file: 'functions/b/gone.ts' }], root, outdir: 'dist/missing' }),
    ).rejects.toThrow(/2 handler file\(s\) do not exist:\s+functions\/a\/nope\.ts\s+functions\/b\/gone\.ts/);
  });

  it('reads its options from flags and env', () => {
    expect(buildOptionsFromArgs([], {})).toEqual({ sdk: 'bundle', sourceMaps: false });
    expect(buildOptionsFromArgs(['--sdk=external', '--sourcemap'], {})).toEqual({ sdk: 'external', sourceMaps: true });
    expect(buildOptionsFromArgs([], { AWS_SDK_MODE: 'external', SOURCEMAPS: '1' })).toEqual({ sdk: 'external', sourceMaps: true });
    expect(() => buildOptionsFromArgs(['--sdk=maybe'], {})).toThrow(/bundle or external/);
  });

  it('names bundle folders after files, flat', () => {
    expect(bundleKey('functions/polls/create-poll.ts')).toBe('polls.create-poll');
    expect(bundleKey('functions/auth/authorizer.ts')).toBe('auth.authorizer');
    expect(bundleKey('functions/polls/basics.ts#getSettings')).toBe('polls.basics.getSettings');
    expect(() => bundleKey('../x.ts')).toThrow();
  });
});
