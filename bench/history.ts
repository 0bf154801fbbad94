import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Each function's cold ratios over runs of the same bundle. The target is
 * the median over runs, and a single run moves a function that sits near
 * the line either way. Ratios are kept in `.bench/cold-history.json` (not
 * committed) under the bundle's key and a hash of its contents and of how
 * the bench calls it (`cold.ts`, `fixtures.ts`), so a function whose bundle
 * or request changed starts afresh, and one whose bundle did not change
 * keeps its earlier runs. At most RUNS runs a bundle are kept.
 */
const FILE = fileURLToPath(new URL('../.bench/cold-history.json', import.meta.url));
const METHOD = ['./cold.ts', './fixtures.ts'].map((file) => readFileSync(new URL(file, import.meta.url))).join('\n');
export const RUNS = 5;

export interface Measured {
  key: string;
  /** The bundle as this run built it. */
  bundlePath: string;
  ratio: number;
}

/** Records this run's ratios; answers each key's ratios over its runs, this one last. */
export function withEarlierRuns(measured: readonly Measured[]): Map<string, number[]> {
  let kept: Record<string, number[]> = {};
  try {
    kept = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, number[]>;
  } catch {
    // The first run on this clone.
  }
  const keys = new Set(measured.map((m) => m.key));
  // Functions this run did not time (BENCH_COLD_ONLY) keep their history; those it timed keep only their current bundle's.
  const next = Object.fromEntries(Object.entries(kept).filter(([id]) => !keys.has(id.slice(0, id.lastIndexOf('@')))));
  const out = new Map<string, number[]>();
  for (const m of measured) {
    const id = `${m.key}@${createHash('sha256').update(METHOD).update(readFileSync(m.bundlePath)).digest('hex').slice(0, 16)}`;
    const ratios = [...(kept[id] ?? []), m.ratio].slice(-RUNS);
    next[id] = ratios;
    out.set(m.key, ratios);
  }
  mkdirSync(dirname(FILE), { recursive: true });
  writeFileSync(FILE, JSON.stringify(next));
  return out;
}
