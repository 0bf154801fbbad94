import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { DIST_FUNCTIONS } from '../infra/bundles.js';
import { buildFunctions } from '../infra/build.js';
import { type Row, kib, median } from './table.js';

/**
 * Bundle sizes of every function, and the cold init of a bundle (load and
 * evaluate its module in a fresh Node process) against a bare handler in the
 * same run, with the AWS SDK bundled and left to the runtime.
 */
function bundleSizes(root: string): { name: string; bytes: number; gzip: number }[] {
  return readdirSync(root)
    .filter((name) => statSync(join(root, name)).isDirectory())
    .map((name) => {
      const file = join(root, name, 'index.mjs');
      return { name, bytes: statSync(file).size, gzip: gzipSync(readFileSync(file)).length };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

/** Milliseconds from `import()` to a ready handler, in a fresh process, median of `runs`. */
function coldInit(file: string, runs = 9): number {
  const script = `const t=performance.now();const m=await import(${JSON.stringify(pathToFileURL(file).href)});if(typeof m.handler!=='function')throw new Error('no handler');process.stdout.write(String(performance.now()-t));`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, AWS_REGION: 'us-east-1' }, encoding: 'utf8' });
    times.push(Number(out));
  }
  return median(times);
}

export async function runBundleBench(): Promise<Row[]> {
  const rows: Row[] = [];
  const sizes = bundleSizes(DIST_FUNCTIONS);
  const largest = sizes[0]!;
  const mid = sizes[Math.floor(sizes.length / 2)]!;
  rows.push(
    { section: 'bundles', measure: 'functions bundled', value: String(sizes.length), note: 'one bundle per handler file; routes sharing a file share it' },
    { section: 'bundles', measure: 'largest', value: kib(largest.bytes), note: `${largest.name} (${kib(largest.gzip)} gzipped)` },
    { section: 'bundles', measure: 'median', value: kib(mid.bytes), note: `${mid.name} (${kib(mid.gzip)} gzipped)` },
  );

  const scratch = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  const bare = join(scratch, 'bare.mjs');
  writeFileSync(bare, "export const handler = async () => ({ statusCode: 200, body: '{}' });\n");
  const baseline = coldInit(bare);
  rows.push({ section: 'cold init', measure: 'bare handler (baseline)', value: `${baseline.toFixed(1)} ms`, note: 'module load in a fresh Node process, median of 9' });

  const sample = ['module-state.status', 'auth.authorizer', largest.name];
  for (const name of sample) {
    const t = coldInit(join(DIST_FUNCTIONS, name, 'index.mjs'));
    rows.push({ section: 'cold init', measure: `${name} (SDK bundled)`, value: `${(t / baseline).toFixed(1)}x baseline`, note: `${t.toFixed(1)} ms` });
  }

  // The same entries with the SDK left to the runtime (here: node_modules, as the runtime's copy would be).
  const external = mkdtempSync(join(tmpdir(), 'bench-external-'));
  const files = ['functions/module-state/status.ts', 'functions/auth/authorizer.ts'];
  await buildFunctions({ routes: files.map((file) => ({ file })), outdir: external, sdk: 'external' });
  for (const name of ['module-state.status', 'auth.authorizer']) {
    const file = join(external, name, 'index.mjs');
    // Resolve @aws-sdk from the project's node_modules, standing in for the runtime's copy.
    const linked = join(process.cwd(), 'dist', `bench-external-${name}.mjs`);
    writeFileSync(linked, readFileSync(file));
    const t = coldInit(linked);
    rows.push({ section: 'cold init', measure: `${name} (SDK external)`, value: `${(t / baseline).toFixed(1)}x baseline`, note: `${t.toFixed(1)} ms; bundle ${kib(statSync(file).size)}` });
  }
  return rows;
}
