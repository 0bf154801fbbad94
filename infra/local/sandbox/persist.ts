/**
 * The sandbox's state on disk: with a data directory, local mode's sandbox
 * writes what it holds to `sandbox-state.json` a moment after each change
 * (debounced, written whole then renamed into place) and reads it back at
 * start, so records the service kept still point at messages, roles and
 * invites that exist after a restart. Injected faults, the request log and
 * the gateway's sessions are not kept.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxState } from './state.js';

const FILE = 'sandbox-state.json';
/** Wait this long after a change before writing, so a burst of changes is one write. */
const DEBOUNCE_MS = 200;
/** What is not kept: failures and logs of this run, and who is listening now. */
const NOT_KEPT = new Set<keyof SandboxState>(['faults', 'requests', 'nextFaultId', 'listeners']);

/** Maps, Sets and Dates as tagged JSON objects, so they come back as they were. */
function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Date) return { $date: raw.toISOString() };
  if (raw instanceof Map) return { $map: [...raw] };
  if (raw instanceof Set) return { $set: [...raw] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const tagged = value as { $date?: string; $map?: [unknown, unknown][]; $set?: unknown[] };
  if (typeof tagged.$date === 'string') return new Date(tagged.$date);
  if (Array.isArray(tagged.$map)) return new Map(tagged.$map);
  if (Array.isArray(tagged.$set)) return new Set(tagged.$set);
  return value;
}

export interface Persistence {
  /** Something changed: write soon. */
  changed(): void;
  /** Write now if a change is pending (at close). */
  flush(): void;
}

/** Reads the kept state of `dataDir` into `state` (if there is one) and answers how to keep it from now on. */
export function persistState(state: SandboxState, dataDir: string): Persistence {
  const file = join(dataDir, FILE);
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8'), reviver) as Partial<SandboxState>;
      for (const key of NOT_KEPT) delete kept[key];
      Object.assign(state, kept);
      state.sources.faults = [];
    } catch (error) {
      console.error(`sandbox platform: ${file} could not be read (${(error as Error).message}); starting empty.`);
    }
  }
  let timer: NodeJS.Timeout | null = null;
  const write = () => {
    timer = null;
    const kept = Object.fromEntries(Object.entries(state).filter(([key]) => !NOT_KEPT.has(key as keyof SandboxState)));
    kept.sources = { ...state.sources, faults: [] };
    writeFileSync(`${file}.tmp`, JSON.stringify(kept, replacer));
    renameSync(`${file}.tmp`, file);
  };
  return {
    changed() {
      timer ??= setTimeout(write, DEBOUNCE_MS);
    },
    flush() {
      if (!timer) return;
      clearTimeout(timer);
      write();
    },
  };
}
