import { existsSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { splitEntry } from '#shared/http/route.js';

/**
 * Where the build puts Lambda bundles and how a source file maps to its
 * bundle folder. Build and CDK both import this, so the two cannot disagree.
 */

/** Root of the bundles, relative to the repository root. */
export const DIST_FUNCTIONS = 'dist/functions';

/** The REQUEST authorizer's source file (written by the auth module). */
export const AUTHORIZER_FILE = 'functions/auth/authorizer.ts';

/** The entry of every deployed job queue's consumer and of the producer (`handler`, `produce`): it dispatches to the jobs' own files. */
export const JOB_QUEUE_FILE = 'functions/job-queue.ts';

/** What the last build produced; the CDK app reads it to match the runtime flags to the bundles. */
export interface BuildInfo {
  /** `bundle`: the AWS SDK v3 is inside every bundle; `external`: the runtime's copy is used. */
  sdk: 'bundle' | 'external';
  /** Whether `index.mjs.map` files were written next to the bundles. */
  sourceMaps: boolean;
}

/** File written next to the bundles recording how they were built. */
export const BUILD_INFO_FILE = 'build-info.json';

/**
 * The bundle folder name of an entry: `functions/polls/create-poll.ts`
 * becomes `polls.create-poll`, `functions/polls/basics.ts#getSettings`
 * becomes `polls.basics.getSettings`. Bundles are keyed by entry, not by
 * route, because several routes share one handler file (every module's home,
 * status, enable and disable): one bundle per entry means one esbuild output
 * and one CDK asset however many routes use it. The folder is flat (dots,
 * not slashes) so that no asset folder contains another bundle's folder.
 */
export function bundleKey(entry: string): string {
  const { file, handler } = splitEntry(entry);
  const normal = posix.normalize(file.split(sep).join('/'));
  if (normal.startsWith('..') || posix.isAbsolute(normal)) throw new Error(`Cannot bundle ${file}: expected a path inside the repository`);
  const withoutExt = normal.replace(/^functions\//, '').replace(/\.(m|c)?[jt]sx?$/, '');
  return [...withoutExt.split('/'), ...(handler === 'handler' ? [] : [handler])].join('.');
}

/** The folder holding `index.mjs` for an entry (a source file, or `file#export`), under `distRoot` (default: the repo's `dist/functions`). */
export function bundleDir(entry: string, distRoot: string = DIST_FUNCTIONS): string {
  return join(distRoot, bundleKey(entry));
}

/** Reads what the last build wrote; null when nothing was built yet. */
export function readBuildInfo(distRoot: string = DIST_FUNCTIONS): BuildInfo | null {
  const path = join(distRoot, BUILD_INFO_FILE);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, 'utf8')) as BuildInfo;
}
