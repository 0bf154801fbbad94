import { readFileSync, realpathSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { type Route, accessTable, splitEntry } from '#shared/http/route.js';

/**
 * What a Lambda needs of the AWS SDK's credential chain: the credentials
 * Lambda puts in the environment. The SDK's default chain
 * (`@aws-sdk/credential-provider-node`) also carries SSO, STS, ini and
 * process files, instance metadata and their clients, which a Lambda never
 * uses and which cost every bundle about a third of its load time. Every
 * client's default resolves here to `fromEnv`, exactly as the chain's first
 * step would. Applied only when the SDK is bundled.
 */
export const envCredentialsOnly: Plugin = {
  name: 'env-credentials-only',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, (args) => ({
      path: 'credential-provider-node',
      namespace: 'env-credentials-only',
      pluginData: { resolveDir: args.resolveDir },
    }));
    build.onLoad({ filter: /.*/, namespace: 'env-credentials-only' }, (args) => ({
      contents: "import { fromEnv } from '@aws-sdk/credential-provider-env';\nexport const defaultProvider = (init) => fromEnv(init);\n",
      resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
      loader: 'js',
    }));
  },
};

const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((name) => name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')).join('|')})$`);

/**
 * Node built-ins loaded the CommonJS way. An ESM `import` of a built-in
 * makes Node build a module namespace of every export, running every lazy
 * getter: `import { STATUS_CODES } from 'node:http'` loads the whole HTTP
 * client stack and undici (tens of milliseconds), where `require` of the
 * same module costs a few. Each static or dynamic `import` of a built-in
 * becomes a `require` through the bundle's `require` (see the banner in
 * build.ts); what the code can use is the same.
 */
export const builtinsAsRequire: Plugin = {
  name: 'builtins-as-require',
  setup(build) {
    build.onResolve({ filter: BUILTIN }, (args) =>
      args.kind === 'import-statement' || args.kind === 'dynamic-import'
        ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin-as-require' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin-as-require' }, (args) => {
      const id = JSON.stringify(`node:${args.path}`);
      if (!LOADED_ON_FIRST_USE.has(args.path)) return { contents: `module.exports = require(${id});`, loader: 'js' };
      const names = JSON.stringify(Object.getOwnPropertyNames(process.getBuiltinModule(`node:${args.path}`) as object).join());
      return {
        contents: `let real;\nconst load = () => (real ??= require(${id}));\nfor (const name of ${names}.split(',')) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });\n`,
        loader: 'js',
      };
    });
  },
};

/**
 * Built-ins a bundle loads only when code first touches one of their
 * exports. `@middy/core` imports the web streams (some 1.5 ms of every cold
 * start) for response streaming, which no function here uses.
 */
const LOADED_ON_FIRST_USE = new Set(['stream/web']);

/** The fields of the project's package.json a function reads: the User-Agent's URL and version (shared/platform/user-agent.ts). */
const MANIFEST_FIELDS = ['homepage', 'version'] as const;

/**
 * The project's package.json as functions bundle it: only the fields they
 * read, not its scripts and dependency lists (about 2 KiB in every bundle).
 * The bundle-budget test checks the User-Agent a bundle carries.
 */
export const manifestFieldsOnly: Plugin = {
  name: 'manifest-fields-only',
  setup(build) {
    const own = join(build.initialOptions.absWorkingDir ?? process.cwd(), 'package.json');
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
      if (args.path !== own) return undefined;
      const manifest = JSON.parse(readFileSync(own, 'utf8')) as Record<string, unknown>;
      return { contents: JSON.stringify(Object.fromEntries(MANIFEST_FIELDS.map((field) => [field, manifest[field]]))), loader: 'json' };
    });
  },
};

/**
 * fast-xml-parser checks each entity a document's DOCTYPE declares with
 * `is-unsafe` (17 KiB) before expanding it. The feed parser expands no
 * entity (`processEntities: false`, functions/socials/feed-xml.ts), so the check
 * is never reached; bundles get a stand-in that calls every such entity
 * unsafe, so were it ever reached, the parser would block the entity rather
 * than expand it.
 */
export const doctypeEntitiesBlocked: Plugin = {
  name: 'doctype-entities-blocked',
  setup(build) {
    build.onResolve({ filter: /^is-unsafe$/ }, () => ({ path: 'is-unsafe', namespace: 'doctype-entities-blocked' }));
    build.onLoad({ filter: /.*/, namespace: 'doctype-entities-blocked' }, () => ({
      contents: "export const HTML = 'html';\nexport const XML = 'xml';\nexport const isUnsafe = () => true;\n",
      loader: 'js',
    }));
  },
};

/**
 * A route's entry that names an export of its file (`file#export`, see
 * `entryOf` in shared/http/route.ts) becomes a one-line module re-exporting
 * it as `handler`, the name every function's runtime calls. Such a file
 * declares the handlers of several routes (a module's basics): what it
 * imports is for those handlers, never for an effect of loading it, so the
 * imports the function's own export does not use are left out with the
 * other exports, and each function still carries its own route only.
 */
export const namedExportEntries: Plugin = {
  name: 'named-export-entries',
  setup(build) {
    const declaring = new Set<string>();
    build.onResolve({ filter: /#/ }, (args) => (args.kind === 'entry-point' ? { path: args.path, namespace: 'named-export-entry' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'named-export-entry' }, (args) => {
      const { file, handler } = splitEntry(args.path);
      // As esbuild names importers: by their real path (a folder reached through a symlink has another).
      declaring.add(realpathSync(join(build.initialOptions.absWorkingDir ?? '', file)));
      return {
        contents: `export { ${handler} as handler } from ${JSON.stringify(`./${file}`)};\n`,
        resolveDir: build.initialOptions.absWorkingDir,
        loader: 'js',
      };
    });
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (!declaring.has(args.importer) || args.pluginData === 'named-export-import') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'named-export-import',
      });
      return resolved.errors.length > 0 ? undefined : { ...resolved, sideEffects: false };
    });
  },
};

/** The authorizer's access table (functions/auth/access.ts). */
const ACCESS_FILE = /[\\/]functions[\\/]auth[\\/]access\.ts$/;

/**
 * The authorizer needs each route's access only, but the route rows also
 * hold every route's schemas: bundling the rows would give the authorizer
 * every module's schemas. So the access table of the routes being built is
 * written into its bundle as plain data.
 */
export function accessTableInlined(routes: readonly Pick<Route, 'method' | 'path' | 'access'>[]): Plugin {
  const table = accessTable(routes);
  return {
    name: 'access-table-inlined',
    setup(build) {
      build.onLoad({ filter: ACCESS_FILE }, () => ({ contents: `export const ACCESS = ${JSON.stringify(table)};\n`, loader: 'js' }));
    },
  };
}

/**
 * For the functions answering reads only: the endpoint factory's key
 * handling (shared/http/idempotency.ts) resolves to what a read uses of it,
 * nothing (shared/http/idempotency-reads.ts), so a GET function carries no
 * key store and no table client it would not use otherwise.
 */
export const keylessReads: Plugin = {
  name: 'keyless-reads',
  setup(build) {
    build.onResolve({ filter: /^\.\/idempotency\.js$/ }, (args) =>
      /[\\/]shared[\\/]http[\\/]endpoint\.ts$/.test(args.importer) ? { path: join(args.resolveDir, 'idempotency-reads.ts') } : undefined,
    );
  },
};
