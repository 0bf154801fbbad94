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
      for (const m of source.matchAll(/^export \{([^}]*)\}/gm)) for (const part of m[1]!.split(',')) names.add(part.trim().split(/\s+as\s+/).pop()!);
      names.delete('');
      const lines = [...names].map((name) =>
        name.startsWith('create') ? `export const ${name} = () => unavailable(${JSON.stringify(name)});` : `export const ${name} = unavailable(${JSON.stringify(name)});`,
      );
      return {
        contents: `const unavailable = (name) => function () { throw new Error('zod ' + name + ' is not in Lambda bundles (infra/zod-plugins.ts): JSON Schema is built at build time'); };\n${lines.join('\n')}\n`,
        loader: 'js',
      };
    });
  },
};

/** The project's files that declare schemas: they import Zod. */
const DECLARES_SCHEMAS = /from 'zod\/mini'/;

/**
 * Lets a bundle leave out the schemas its function never uses. A module's
 * schema file declares the schemas of all its routes, and each one is built
 * when the file loads: milliseconds of every cold start for the dozens a
 * function does not need. esbuild drops an unused declaration only when it
 * knows that evaluating it has no side effects, which it cannot know of a
 * call into another file or of a spread. This plugin wraps each top-level
 * declaration of such files that calls, constructs or spreads in a function
 * called at once and marked `@__PURE__`: the value is the same, and esbuild
 * may leave it out where nothing reads it. Building a schema has no effect
 * beyond its value but registering documentation, which the OpenAPI
 * document (built from the sources, not the bundles) reads.
 */
export const unusedSchemasDropped: Plugin = {
  name: 'unused-schemas-dropped',
  setup(build) {
    build.onLoad({ filter: /[\\/](functions|shared)[\\/].*\.ts$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!DECLARES_SCHEMAS.test(source)) return undefined;
      const { default: ts } = await import('typescript');
      const file = ts.createSourceFile(args.path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const evaluates = (node: import('typescript').Node): boolean =>
        !ts.isFunctionLike(node) &&
        (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isSpreadAssignment(node) || ts.isSpreadElement(node) || Boolean(ts.forEachChild(node, (child) => evaluates(child) || undefined)));
      const wrapped = file.statements
        .filter(ts.isVariableStatement)
        .flatMap((statement) => statement.declarationList.declarations.map((d) => d.initializer))
        .filter((init): init is import('typescript').Expression => init !== undefined && evaluates(init));
      let contents = source;
      for (const init of wrapped.reverse()) {
        contents = `${contents.slice(0, init.getStart(file))}/* @__PURE__ */ (() => (${init.getText(file)}))()${contents.slice(init.getEnd())}`;
      }
      return { contents, loader: 'ts' };
    });
  },
};
