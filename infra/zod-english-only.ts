import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * Zod's `z` namespace re-exports every locale it ships (some forty), so a
 * bundle that uses `z.object` carries all of them: over half of a handler
 * bundle. The service speaks English only; this plugin resolves Zod's locale
 * index to English alone. Measured by `npm run bench`.
 */
export const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/** Zod modules a function never runs: JSON Schema in both directions and `z.compile`. */
const BUILD_TIME_ONLY = /^\.\.?\/(?:core\/)?(compile|json-schema-processors|to-json-schema|json-schema-generator|from-json-schema)\.js$/;

/**
 * Leaves out of a bundle the Zod modules that turn schemas into JSON Schema
 * (and back) and compile them to code: some 60 KiB that every function would
 * parse at each cold start. The OpenAPI document is written at build time
 * (`infra/build.ts`) and local mode runs the sources, so no function calls
 * them; if one did, it would fail loudly, naming this plugin, rather than
 * answer wrongly. Each left-out export throws when called; `create...`
 * factories (which Zod calls while building a schema) answer such a thrower.
 */
export const zodRuntimeOnly: Plugin = {
  name: 'zod-runtime-only',
  setup(build) {
    build.onResolve({ filter: BUILD_TIME_ONLY }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(args.resolveDir, args.path), namespace: 'zod-runtime-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-runtime-only' }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = new Set([...source.matchAll(/^export (?:async )?(?:function|const|class|let) ([\w$]+)/gm)].map((m) => m[1]!));
      for (const m of source.matchAll(/^export \{([^}]*)\}/gm)) for (const part of m[1]!.split(',')) names.add(part.trim().split(/\s+as\s+/).pop()!);
      names.delete('');
      const lines = [...names].map((name) =>
        name.startsWith('create') ? `export const ${name} = () => unavailable(${JSON.stringify(name)});` : `export const ${name} = unavailable(${JSON.stringify(name)});`,
      );
      return {
        contents: `const unavailable = (name) => function () { throw new Error('zod ' + name + ' is not in Lambda bundles (infra/zod-english-only.ts): JSON Schema is built at build time'); };\n${lines.join('\n')}\n`,
        loader: 'js',
      };
    });
  },
};
