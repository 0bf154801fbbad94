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

/** The project's files that declare schemas: they import Zod. */
const DECLARES_SCHEMAS = /from 'zod\/mini'/;
/** The project's files that declare route rows (`route(...)`, a row maker named `...Route` as a module's basics, `routeFamily(...)`): a row may name a success schema. */
const DECLARES_RESPONSE = /\b(route|routeFamily|\w+Route)\(/;
const MAKES_ROW = /^(route|routeFamily|\w+Route)$/;
/** A module's route table: one row per export (`route(...)`), each function bundling its own. */
const DECLARES_ROUTES = /\broute\(/;
/** A module's basics: one endpoint per export (made by shared/modules/basics/), each function bundling one of them. */
const DECLARES_BASICS = /from '[^']*shared\/modules\/basics\//;

/**
 * Lets a bundle leave out the schemas its function never uses.
 *
 * A module's schema file declares the schemas of all its routes, and each
 * one is built when the file loads: milliseconds of every cold start for the
 * dozens a function does not need. esbuild drops an unused declaration only
 * when it knows that evaluating it has no side effects, which it cannot know
 * of a call into another file or of a spread. So each top-level declaration
 * of such files that calls, constructs or spreads is wrapped in a function
 * called at once and marked `@__PURE__`: the value is the same, and esbuild
 * may leave it out where nothing reads it. Building a schema has no effect
 * beyond its value but registering documentation, which the OpenAPI
 * document (built from the sources, not the bundles) reads.
 *
 * A module's basics file (`functions/<module>/basics.ts`) declares one endpoint
 * per export, and each function re-exports one of them (infra/build-plugins.ts):
 * its declarations are wrapped the same way, so the others are left out.
 *
 * A module's route table (`functions/<module>/routes.ts`) declares one row
 * per export (`route({...})`), and each handler reads its own: its rows are
 * wrapped the same way, so a function carries its own row and the schemas
 * it names only, never the module's other rows.
 *
 * A route's `response` schema is never run by a function: the OpenAPI
 * document and the tests read it from the sources. So the `response`
 * property of every row written in place (`route({...})`, or an argument
 * of a row maker named `...Route`, as `settingsReadRoute('polls', {...})`,
 * or anywhere in a `routeFamily({...})`) is left out of the bundle, and
 * with it the building of the success schema (a record with its nested
 * records: about a millisecond and a half of a cold request).
 */
export const unusedSchemasDropped: Plugin = {
  name: 'unused-schemas-dropped',
  setup(build) {
    build.onLoad({ filter: /[\\/](functions|shared)[\\/].*\.ts$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (![DECLARES_SCHEMAS, DECLARES_RESPONSE, DECLARES_BASICS].some((declares) => declares.test(source))) return undefined;
      const { default: ts } = await import('typescript');
      type Node = import('typescript').Node;
      const parse = (text: string) => ts.createSourceFile(args.path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      /** Replaces each node's text with `replace(text)`, from the last so earlier offsets hold. */
      const rewrite = (text: string, nodes: Node[], replace: (text: string) => string) => {
        const file = parse(text);
        let out = text;
        for (const node of [...nodes].sort((a, b) => b.getStart(file) - a.getStart(file))) {
          out = `${out.slice(0, node.getStart(file))}${replace(node.getText(file))}${out.slice(node.getEnd())}`;
        }
        return out;
      };

      // 1. The `response` of every row written in place.
      const responses = new Set<Node>();
      const findResponses = (node: Node): void => {
        const declaresRows = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && MAKES_ROW.test(node.expression.text);
        const findIn = (inner: Node): void => {
          if (ts.isObjectLiteralExpression(inner)) {
            for (const p of inner.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'response') responses.add(p);
          }
          ts.forEachChild(inner, findIn);
        };
        if (declaresRows) for (const argument of node.arguments) findIn(argument);
        ts.forEachChild(node, findResponses);
      };
      findResponses(parse(source));
      const withoutResponses = rewrite(source, [...responses], () => 'response: undefined');

      // 2. Top-level declarations that evaluate something, as pure calls.
      const file = parse(withoutResponses);
      const evaluates = (node: Node): boolean =>
        !ts.isFunctionLike(node) &&
        (ts.isCallExpression(node) ||
          ts.isNewExpression(node) ||
          ts.isSpreadAssignment(node) ||
          ts.isSpreadElement(node) ||
          Boolean(ts.forEachChild(node, (child) => evaluates(child) || undefined)));
      const wrapped =
        DECLARES_SCHEMAS.test(source) || DECLARES_BASICS.test(source) || DECLARES_ROUTES.test(source)
          ? file.statements
              .filter(ts.isVariableStatement)
              .flatMap((statement) => statement.declarationList.declarations.map((d) => d.initializer))
              .filter((init): init is import('typescript').Expression => init !== undefined && evaluates(init))
          : [];
      const contents = rewrite(withoutResponses, wrapped, (text) => `/* @__PURE__ */ (() => (${text}))()`);
      return contents === source ? undefined : { contents, loader: 'ts' };
    });
  },
};
