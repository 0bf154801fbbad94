/**
 * Bundles every Lambda of the service with ONE esbuild call: each distinct
 * route handler file, the authorizer and the job files become entry points,
 * written to `dist/functions/<bundle-key>/index.mjs` (see `bundles.ts`).
 *
 *   npm run build                       # AWS SDK bundled, no source maps
 *   npm run build -- --sdk=external     # rely on the SDK shipped by nodejs24.x
 *   npm run build -- --sourcemap        # external .map files (+ NODE_OPTIONS in CDK)
 *
 * The same options can come from env `AWS_SDK_MODE=bundle|external` and
 * `SOURCEMAPS=1`, so a benchmark can build both ways without editing files.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { REDOC_FILE, offlineRenderer } from '#functions/health/docs-asset.js';
import { type Entry, type Route, entryOf, splitEntry } from '#shared/http/route.js';
import { AUTHORIZER_FILE, BUILD_INFO_FILE, JOB_QUEUE_FILE, bundleKey, DIST_FUNCTIONS, type BuildInfo } from './bundles.js';
import type { Job } from './jobs.js';
import {
  accessTableInlined,
  builtinsAsRequire,
  doctypeEntitiesBlocked,
  envCredentialsOnly,
  keylessReads,
  manifestFieldsOnly,
  namedExportEntries,
} from './build-plugins.js';
import { zodRuntimeOnly } from './zod-plugins.js';

/** The handler serving /openapi.json; the build writes the document beside its bundle. */
const OPENAPI_FILE = 'functions/health/openapi.ts';

/** What to bundle, where, and how (see the top of this file for the CLI equivalents). */
export interface BuildFunctionsOptions {
  /** The routes whose entries (handler files, or a file's named export) to bundle. */
  routes: readonly Entry[];
  /** Job files (consumers and producers). */
  jobs?: readonly Pick<Job, 'file'>[];
  /** Extra entry files, e.g. the authorizer. */
  extraFiles?: readonly string[];
  /** Repository root the files are relative to. */
  root?: string;
  /** Output root, emptied first; every bundle gets a folder below it. */
  outdir?: string;
  /**
   * Bundle the AWS SDK v3 or leave it to the runtime. Bundling (the default)
   * pins the SDK version we test with and lets esbuild tree-shake and minify
   * it into one file, which usually loads faster than the runtime's
   * unminified multi-file copy; the price is larger bundles (and a slower
   * build/upload). `external` keeps bundles small and uses whatever SDK
   * version the runtime ships, which may lag or lead package.json. The cold
   * start benchmark builds both and measures.
   */
  sdk?: BuildInfo['sdk'];
  /** Write external source maps (the CDK app then sets `--enable-source-maps`). */
  sourceMaps?: boolean;
}

/** The bundles written, and the build info recorded with them. */
export interface BuildFunctionsResult {
  /** Entry (source file, or `file#export`) -> bundle folder (absolute). */
  bundles: Map<string, string>;
  info: BuildInfo;
  /** esbuild's record of every output: its size and the inputs it holds. */
  metafile: Metafile;
}

/**
 * ESM bundles have no `require`; CommonJS dependencies that `require` a Node
 * built-in would hit esbuild's "Dynamic require is not supported" shim.
 * Defining `require` from `import.meta.url` lets them work.
 */
const REQUIRE_BANNER = "import { createRequire as __gmsCreateRequire } from 'node:module'; const require = __gmsCreateRequire(import.meta.url);";

/** The packages Lambda's nodejs24.x runtime already provides (SDK v3 and its Smithy core). */
const RUNTIME_SDK = ['@aws-sdk/*', '@smithy/*'];

/** Runs the single esbuild call. Throws, listing them, when entry files are missing. */
export async function buildFunctions(options: BuildFunctionsOptions): Promise<BuildFunctionsResult> {
  const root = resolve(options.root ?? '.');
  const outdir = resolve(root, options.outdir ?? DIST_FUNCTIONS);
  const info: BuildInfo = { sdk: options.sdk ?? 'bundle', sourceMaps: options.sourceMaps ?? false };

  const entries = [...new Set([...options.routes.map(entryOf), ...(options.jobs ?? []).map((j) => j.file), ...(options.extraFiles ?? [])])].sort();
  const missing = [...new Set(entries.map((entry) => splitEntry(entry).file))].filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) {
    throw new Error(`Cannot build: ${missing.length} handler file(s) do not exist:\n  ${missing.join('\n  ')}`);
  }

  // Two entries with one key would silently overwrite each other's bundle.
  const byKey = new Map<string, string>();
  for (const entry of entries) {
    const key = bundleKey(entry);
    const other = byKey.get(key);
    if (other) throw new Error(`Cannot build: ${entry} and ${other} map to the same bundle folder ${key}`);
    byKey.set(key, entry);
  }

  // Stale folders of removed handlers would otherwise stay deployable.
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });

  const config: BuildOptions = {
    absWorkingDir: root,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    treeShaking: true,
    sourcemap: info.sourceMaps ? 'external' : false,
    // Prefer ESM builds of dependencies: they tree-shake, CJS builds do not.
    mainFields: ['module', 'main'],
    banner: { js: REQUIRE_BANNER },
    external: info.sdk === 'external' ? RUNTIME_SDK : [],
    legalComments: 'none',
    // The credential chain is the SDK's; left to the runtime, so is its chain.
    plugins: [
      namedExportEntries,
      accessTableInlined(options.routes.filter((route): route is Route => 'access' in route)),
      zodRuntimeOnly,
      builtinsAsRequire,
      manifestFieldsOnly,
      doctypeEntitiesBlocked,
      ...(info.sdk === 'bundle' ? [envCredentialsOnly] : []),
    ],
    logLevel: 'warning',
    metafile: true,
  };
  // Functions answering reads only are built apart, without the key handling of mutating calls (keylessReads).
  const readOnly = readOnlyEntries(options.routes);
  const [reads, others] = [[...byKey].filter(([, entry]) => readOnly.has(entry)), [...byKey].filter(([, entry]) => !readOnly.has(entry))];
  const results = await Promise.all(
    [
      { entries: reads, plugins: [keylessReads] },
      { entries: others, plugins: [] },
    ]
      .filter((part) => part.entries.length > 0)
      .map((part) =>
        build({
          ...config,
          entryPoints: part.entries.map(([key, entry]) => ({ in: entry, out: `${key}/index` })),
          plugins: [...part.plugins, ...(config.plugins ?? [])],
        }),
      ),
  );
  const result = {
    metafile: {
      inputs: Object.assign({}, ...results.map((r) => r.metafile?.inputs)),
      outputs: Object.assign({}, ...results.map((r) => r.metafile?.outputs)),
    } as Metafile,
  };

  writeFileSync(join(outdir, BUILD_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
  const bundles = new Map([...byKey].map(([key, entry]) => [entry, join(outdir, key)]));

  const sizes = Object.entries(result.metafile?.outputs ?? {})
    .filter(([path]) => path.endsWith('.mjs'))
    .map(([, output]) => output.bytes);
  const total = sizes.reduce((a, b) => a + b, 0);
  const largest = Math.max(0, ...sizes);
  console.log(`built ${bundles.size} bundles (sdk ${info.sdk}, source maps ${info.sourceMaps ? 'on' : 'off'}): ${kib(total)} total, largest ${kib(largest)}`);
  return { bundles, info, metafile: result.metafile! };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Entries that serve GET routes only (no job, no other file): they take no Idempotency-Key. */
function readOnlyEntries(routes: readonly Entry[]): Set<string> {
  const methods = new Map<string, Set<string>>();
  for (const route of routes) {
    const entry = entryOf(route);
    const method = 'method' in route ? String(route.method) : 'POST';
    methods.set(entry, (methods.get(entry) ?? new Set()).add(method));
  }
  return new Set([...methods].filter(([, seen]) => seen.size === 1 && seen.has('GET')).map(([entry]) => entry));
}

/** Reads the CLI flags and env described at the top of this file. */
export function buildOptionsFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv): Pick<BuildFunctionsOptions, 'sdk' | 'sourceMaps'> {
  const sdkArg = argv.find((a) => a.startsWith('--sdk='))?.slice('--sdk='.length) ?? env.AWS_SDK_MODE ?? 'bundle';
  if (sdkArg !== 'bundle' && sdkArg !== 'external') throw new Error(`--sdk must be bundle or external, not ${sdkArg}`);
  const sourceMaps = argv.includes('--sourcemap') || env.SOURCEMAPS === '1' || env.SOURCEMAPS === 'true';
  return { sdk: sdkArg, sourceMaps };
}

async function main(): Promise<void> {
  // Imported here, not at the top, so tests can import buildFunctions with a fake route list.
  const { routes } = await import('#functions/routes.js');
  const { jobs } = await import('./jobs.js');
  const { bundles } = await buildFunctions({
    routes,
    jobs,
    extraFiles: [AUTHORIZER_FILE, JOB_QUEUE_FILE],
    ...buildOptionsFromArgs(process.argv.slice(2), process.env),
  });
  await writeServedFiles(routes, bundles);
}

/** What functions serve from beside their bundles: the OpenAPI document and the docs renderer. */
export async function writeServedFiles(routes: readonly Route[], bundles: Map<string, string>): Promise<void> {
  await writeOpenApiDocument(routes, bundles);
  writeDocsRenderer(bundles);
}

const DOCS_ASSET_FILE = 'functions/health/docs-asset.ts';

/** The deployed /docs/redoc.standalone.js function serves the renderer copied beside its bundle here. */
function writeDocsRenderer(bundles: Map<string, string>): void {
  const target = bundles.get(DOCS_ASSET_FILE);
  if (!target) throw new Error(`Cannot copy the docs renderer: ${DOCS_ASSET_FILE} was not bundled`);
  const source = readFileSync(createRequire(import.meta.url).resolve(`redoc/bundles/${REDOC_FILE}`), 'utf8');
  writeFileSync(join(target, REDOC_FILE), offlineRenderer(source));
}

/**
 * The deployed /openapi.json function serves the document written beside its
 * bundle here, generated from the route rows' schemas, so it need not
 * bundle them to describe them.
 */
async function writeOpenApiDocument(routes: readonly Route[], bundles: Map<string, string>): Promise<void> {
  const { loadOpenApiDocument } = await import('#shared/openapi/load.js');
  const target = bundles.get(OPENAPI_FILE);
  if (!target) throw new Error(`Cannot write the OpenAPI document: ${OPENAPI_FILE} was not bundled`);
  writeFileSync(join(target, 'openapi.json'), JSON.stringify(await loadOpenApiDocument(routes)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
