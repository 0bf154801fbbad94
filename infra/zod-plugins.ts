import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';

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
      for (const m of source.matchAll(/^export \{([^}]*)\}/gm))
        for (const part of m[1]!.split(','))
          names.add(
            part
              .trim()
              .split(/\s+as\s+/)
              .pop()!,
          );
      names.delete('');
      const lines = [...names].map((name) =>
        name.startsWith('create')
          ? `export const ${name} = () => unavailable(${JSON.stringify(name)});`
          : `export const ${name} = unavailable(${JSON.stringify(name)});`,
      );
      return {
        contents: `const unavailable = (name) => function () { throw new Error('zod ' + name + ' is not in Lambda bundles (infra/zod-plugins.ts): JSON Schema is built at build time'); };\n${lines.join('\n')}\n`,
        loader: 'js',
      };
    });
  },
};
