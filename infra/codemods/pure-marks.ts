/**
 * Marks each top-level declaration of a schema, route or basics file that
 * evaluates something as one a bundle may leave out (shared/built.ts), as
 * the build plugin `unusedSchemasDropped` used to do while bundling:
 * `tsx infra/codemods/pure-marks.ts`. First run for issue 43; run it again
 * after merging a branch that adds declarations unmarked.
 *
 * The files are those under functions/ and shared/ that import `zod/mini`,
 * a module's `routes.ts` and `basics.ts`. A declaration that calls,
 * constructs or spreads (a handler file's `handler` aside) becomes
 * `/* @__PURE__ *\/ f(...)` when its arguments are plain (names, literals,
 * functions), else `/* @__PURE__ *\/ built(() => ...)`. Marked ones are left
 * alone, so it may run again. Run `npx biome check --write` after it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const PURE = '/* @__PURE__ */';

/** Whether a `@__PURE__` comment comes right before the node (on its line too, where TypeScript calls it trailing). */
const isMarked = (node: ts.Node, file: ts.SourceFile) => file.text.slice(node.getFullStart(), node.getStart(file)).includes('@__PURE__');

/** A value esbuild knows evaluating has no effect: names, literals, functions, and plain objects and arrays of those. */
function plain(node: ts.Node): boolean {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node))
    return plain(node.expression);
  if (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isFunctionLike(node)) return true;
  if (ts.isPrefixUnaryExpression(node)) return plain(node.operand);
  if (ts.isPropertyAccessExpression(node))
    return ts.isIdentifier(node.expression) || ts.isPropertyAccessExpression(node.expression) ? plain(node.expression) : false;
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(plain);
  if (ts.isObjectLiteralExpression(node))
    return node.properties.every(
      (p) =>
        (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && plain(p.initializer)) ||
        ts.isShorthandPropertyAssignment(p) ||
        ts.isMethodDeclaration(p),
    );
  return false;
}

/** Whether evaluating an initializer may call, construct or spread, not counting calls marked pure whose arguments are plain. */
function evaluates(node: ts.Node, file: ts.SourceFile): boolean {
  if (ts.isFunctionLike(node)) return false;
  if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && isMarked(node, file) && plainCall(node)) return false;
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isSpreadAssignment(node) || ts.isSpreadElement(node) || ts.isTaggedTemplateExpression(node))
    return true;
  return Boolean(ts.forEachChild(node, (child) => evaluates(child, file) || undefined));
}

const plainCall = (node: ts.CallExpression | ts.NewExpression) =>
  (ts.isIdentifier(node.expression) || ts.isPropertyAccessExpression(node.expression)) && plain(node.expression) && (node.arguments ?? []).every(plain);

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/'));
}

let changed = 0;
for (const path of [...files('functions'), ...files('shared')]) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const moduleFile = /^functions\/[^/]+\/(routes|basics)\.ts$/.test(path);
  if (!(moduleFile || /from 'zod\/mini'/.test(text)) || /\/answers\.ts$/.test(path) || path === 'shared/built.ts') continue;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  let needsBuilt = false;
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      const init = decl.initializer;
      if (!init || decl.name.getText(file) === 'handler' || !evaluates(init, file)) continue;
      if ((ts.isCallExpression(init) || ts.isNewExpression(init)) && plainCall(init)) {
        edits.push({ start: init.getStart(file), end: init.getStart(file), text: `${PURE} ` });
      } else {
        needsBuilt = true;
        edits.push({
          start: init.getStart(file),
          end: init.getEnd(),
          text: `${PURE} built(() => ${ts.isObjectLiteralExpression(init) ? `(${init.getText(file)})` : init.getText(file)})`,
        });
      }
    }
  }
  if (!edits.length) continue;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  if (needsBuilt && !/import \{ built \}/.test(out)) {
    const imports = file.statements.filter(ts.isImportDeclaration);
    // After the last import (whose offset the edits, all below the imports, left alone).
    const at = imports.length ? imports[imports.length - 1]!.getEnd() : 0;
    out = `${out.slice(0, at)}\nimport { built } from '#shared/built.js';${out.slice(at)}`;
  }
  writeFileSync(join(ROOT, path), out);
  changed++;
  console.log(`${path}: ${edits.length}`);
}
console.log(`${changed} files marked`);
