import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { type Row, kib, median, printRows } from './table.js';

/**
 * `npx tsx bench/observe-cost.ts`: what the service's logger and EMF writer
 * (shared/observe) cost a function, against Powertools for AWS Lambda's
 * Logger and Metrics writing the same two lines, and a handler writing
 * nothing: each bundled alone (minified, as infra/build.ts bundles), then
 * loaded and called once in a fresh Node process, the three interleaved,
 * `BENCH_OBSERVE_ROUNDS` times (default 15). Absolute times depend on the
 * machine; the differences are the figure.
 */
const ROUNDS = Number(process.env.BENCH_OBSERVE_ROUNDS || 15);
const VARIANTS = ['none', 'ours', 'powertools'] as const;
const run = promisify(execFile);

const CHILD = `process.stdout;process.stderr;
const t0 = performance.now();
const mod = await import(process.env.BENCH_FILE);
const t1 = performance.now();
await mod.handler();
const t2 = performance.now();
process.stderr.write(JSON.stringify({ init: t1 - t0, first: t2 - t1 }));`;

const outdir = mkdtempSync(join(tmpdir(), 'bench-observe-'));
try {
  const bytes = new Map<string, number>();
  for (const variant of VARIANTS) {
    const result = await build({
      entryPoints: [`bench/observe/${variant}.ts`],
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile: join(outdir, `${variant}.mjs`),
      metafile: true,
      logLevel: 'error',
    });
    bytes.set(variant, Object.values(result.metafile.outputs)[0]!.bytes);
  }
  const times = new Map<string, number[]>(VARIANTS.map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of VARIANTS) {
      const { stderr } = await run(process.execPath, ['--input-type=module', '-e', CHILD], {
        env: { PATH: process.env.PATH ?? '', BENCH_FILE: pathToFileURL(join(outdir, `${variant}.mjs`)).href },
        encoding: 'utf8',
      });
      const { init, first } = JSON.parse(stderr) as { init: number; first: number };
      times.get(variant)!.push(init + first);
    }
  }
  const base = median(times.get('none')!);
  const rows: Row[] = VARIANTS.filter((v) => v !== 'none').map((variant) => ({
    section: 'observe cost',
    measure: variant === 'ours' ? 'shared/observe (log + emit)' : 'Powertools Logger + Metrics',
    value: `+${(median(times.get(variant)!) - base).toFixed(1)} ms, ${kib(bytes.get(variant)!)}`,
    note: `load and first call over a handler writing nothing (${base.toFixed(1)} ms), median of ${ROUNDS}, interleaved; minified bundle alone`,
  }));
  printRows(rows);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
