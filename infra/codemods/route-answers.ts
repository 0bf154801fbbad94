/**
 * Run once (issue 43): moves each route's answer out of its row and writes
 * every row as a plain object literal, `tsx infra/codemods/route-answers.ts`.
 *
 * In each `functions/<module>/routes.ts`:
 * - `export const x = route({ ..., response: X })` becomes
 *   `export const x = { ... } as const satisfies Route;` without `response`,
 *   its path a plain string, a call in it marked `@__PURE__`;
 * - a basics row maker (`settingsReadRoute('polls', {...})`, `privacyCountRoute`,
 *   ...) becomes the row it made, written out;
 * - the module's state copies (`...moduleStateRoutes('polls')`,
 *   `moduleStateRoute(home, ...)`) become rows of their own (`home`, `status`,
 *   `enable`, `disable`, `handlerHome`);
 * - a family's `response` leaves its `spec`.
 * Each row's answer goes to `functions/<module>/answers.ts`, by id (a
 * family's are written there by hand). Run `npx biome check --write` after
 * it. Rows it cannot convert are listed and it exits 1.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import type { Route } from '#shared/http/route.js';

const ROOT = process.cwd();
const problems: string[] = [];

interface Edit {
  start: number;
  end: number;
  text: string;
}
const apply = (text: string, edits: Edit[]) => {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
};
const q = (value: string) => JSON.stringify(value);

/** The state copies' schemas and answers, by operation of the shared row. */
const STATE: Record<string, { schema: string; answer: string }> = {
  home: { schema: '', answer: 'HomeAnswer' },
  status: { schema: 'query: guildQuery', answer: 'StatusAnswer' },
  enable: { schema: 'body: guildBody', answer: 'SnapshotAnswer' },
  disable: { schema: 'body: guildBody', answer: 'SnapshotAnswer' },
};
const STATE_NAME: Record<string, string> = { home: 'home', status: 'status', enable: 'enable', disable: 'disable', 'handler-home': 'handlerHome' };

/** A row written out from its value: id, method, path, access, summary, file, handler, then its schemas. */
function rowText(row: Route, schemas: string[]): string {
  const fields = [`id: ${q(row.id)}`, `method: ${q(row.method)}`, `path: ${q(row.path)}`, `access: ${q(row.access)}`, `summary: ${q(row.summary)}`];
  if (row.file) fields.push(`file: ${q(row.file)}`);
  if (row.handler) fields.push(`handler: ${q(row.handler)}`);
  return `{\n  ${[...fields, ...schemas.filter(Boolean)].join(',\n  ')},\n} as const satisfies Route`;
}

const propOf = (obj: ts.ObjectLiteralExpression, name: string) =>
  obj.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name);

/** Calls inside a row (`answerFailures('...')`), marked pure: their arguments must be literals. */
function markCalls(node: ts.Node, file: ts.SourceFile, edits: Edit[], where: string) {
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      if (!n.arguments.every((a) => ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a) || ts.isIdentifier(a)))
        problems.push(`${where}: a call with computed arguments`);
      edits.push({ start: n.getStart(file), end: n.getStart(file), text: '/* @__PURE__ */ ' });
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
}

async function convert(module: string) {
  const path = join(ROOT, 'functions', module, 'routes.ts');
  const source = readFileSync(path, 'utf8');
  if (!/\broute\(|Route\(|moduleStateRoutes\(|routeFamily\(/.test(source) || module === 'module-state') return;
  // Run once: a module with answers is converted; a row added since in the old shape is converted by hand (docs/architecture.md).
  if (existsSync(join(ROOT, 'functions', module, 'answers.ts'))) {
    problems.push(`functions/${module}: has answers.ts already; convert its remaining route({...}) rows by hand`);
    return;
  }
  const values = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: Edit[] = [];
  /** Answers by id: the schema's source text. */
  const answers: [string, string][] = [];
  const stateAnswers: [string, string][] = [];
  /** Identifiers the answers name, and the state rows added. */
  const extraRoutesImports = new Set<string>();
  const stateRows: string[] = [];

  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      const name = decl.name.getText(file);
      const init = decl.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression)) continue;
      const maker = init.expression.text;
      const where = `functions/${module}/routes.ts ${name}`;
      if (maker === 'route') {
        const obj = init.arguments[0];
        if (!obj || !ts.isObjectLiteralExpression(obj)) {
          problems.push(`${where}: route() of no object literal`);
          continue;
        }
        const row = values[name] as Route & { response?: unknown };
        const inner: Edit[] = [];
        const objStart = obj.getStart(file);
        const response = propOf(obj, 'response');
        if (response) {
          answers.push([row.id, response.initializer.getText(file)]);
          // The property and its comma.
          let end = response.getEnd();
          if (source[end] === ',') end++;
          inner.push({ start: response.getFullStart() - objStart, end: end - objStart, text: '' });
        } else problems.push(`${where}: no response`);
        const pathProp = propOf(obj, 'path');
        if (pathProp && !ts.isStringLiteral(pathProp.initializer)) {
          inner.push({ start: pathProp.initializer.getStart(file) - objStart, end: pathProp.initializer.getEnd() - objStart, text: q(row.path) });
        }
        const markEdits: Edit[] = [];
        for (const p of obj.properties) if (p !== response) markCalls(p, file, markEdits, where);
        inner.push(...markEdits.map((e) => ({ start: e.start - objStart, end: e.end - objStart, text: e.text })));
        const text = apply(obj.getText(file), inner);
        edits.push({ start: init.getStart(file), end: init.getEnd(), text: `${text} as const satisfies Route` });
      } else if (/^(settings(Read|Update|Delete)|privacy(Count|Delete))Route$/.test(maker)) {
        const row = values[name] as Route;
        const declared = init.arguments[1];
        const obj = declared && ts.isObjectLiteralExpression(declared) ? declared : undefined;
        const schemas: string[] = [];
        let answer: string | undefined;
        if (maker === 'settingsReadRoute') schemas.push('query: guildQuery');
        if (maker === 'settingsDeleteRoute') schemas.push('body: guildBody');
        if (maker === 'privacyCountRoute') {
          schemas.push('query: privacyQuery');
          answer = 'privacyCounts';
        }
        if (maker === 'privacyDeleteRoute') {
          schemas.push('body: privacyQuery');
          answer = 'messageAnswer';
        }
        if (maker === 'settingsUpdateRoute') {
          schemas.push(`body: ${propOf(obj!, 'body')!.initializer.getText(file)}`);
          const owned = obj && propOf(obj, 'owned');
          if (owned) schemas.push(`owned: ${owned.initializer.getText(file)}`);
        }
        for (const id of ['guildQuery', 'guildBody', 'privacyQuery']) if (schemas.some((s) => s.endsWith(id))) extraRoutesImports.add(id);
        answer ??= obj && propOf(obj, 'response')?.initializer.getText(file);
        if (!answer) problems.push(`${where}: no response`);
        else answers.push([row.id, answer]);
        edits.push({ start: init.getStart(file), end: init.getEnd(), text: rowText(row, schemas) });
      } else if (maker === 'routeFamily') {
        // The family's answers are written by hand; its `response` leaves the spec.
        const visit = (n: ts.Node): void => {
          if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'response') {
            let end = n.getEnd();
            let start = n.getStart(file);
            if (source[end] === ',') end++;
            else if (source.slice(0, start).trimEnd().endsWith(',')) start = source.slice(0, start).trimEnd().length - 1;
            edits.push({ start, end, text: '' });
            return;
          }
          ts.forEachChild(n, visit);
        };
        visit(init);
      }
    }
  }

  // The routes list: the state copies as rows of their own.
  const routesDecl = file.statements
    .filter(ts.isVariableStatement)
    .flatMap((s) => s.declarationList.declarations)
    .find((d) => d.name.getText(file) === 'routes');
  const list = routesDecl?.initializer;
  const runtime = values.routes as Route[];
  if (list && ts.isArrayLiteralExpression(list)) {
    for (const element of list.elements) {
      const text = element.getText(file);
      const copies = /^\.\.\.moduleStateRoutes\(/.test(text)
        ? ['home', 'status', 'enable', 'disable']
        : /^moduleStateRoute\(home,/.test(text)
          ? ['handler-home']
          : [];
      if (!copies.length) continue;
      const names: string[] = [];
      for (const operation of copies) {
        const row = runtime.find((r) => r.id === `${module}.${operation}`)!;
        const base = operation === 'handler-home' ? 'home' : operation;
        const varName = STATE_NAME[operation]!;
        names.push(varName);
        stateRows.push(`export const ${varName} = ${rowText(row, [STATE[base]!.schema])};`);
        stateAnswers.push([row.id, STATE[base]!.answer]);
        if (STATE[base]!.schema) extraRoutesImports.add(STATE[base]!.schema.split(': ')[1]!);
      }
      edits.push({ start: element.getStart(file), end: element.getEnd(), text: names.join(',\n  ') });
    }
  }
  // The state rows go first, before the first exported declaration.
  const firstExport = file.statements.find((s) => ts.isVariableStatement(s) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  if (stateRows.length && firstExport) {
    edits.push({
      start: firstExport.getFullStart(),
      end: firstExport.getFullStart(),
      text: `\n\n/** The module's state routes (behaviour §5), served by functions/module-state/. */\n${stateRows.join('\n')}\n`,
    });
  }

  answers.unshift(...stateAnswers);
  let out = apply(source, edits);
  // Imports: the row makers and route() go, the schemas the rows name come in.
  out = out.replace(/import \{ type Route, route \} from '#shared\/http\/route.js';/, "import type { Route } from '#shared/http/route.js';");
  for (const id of importsOf(file).keys()) extraRoutesImports.delete(id);
  if (extraRoutesImports.size) out = `import { ${[...extraRoutesImports].sort().join(', ')} } from '#shared/http/schemas.js';\n${out}`;
  out = pruneImports(pruneConstants(out, path), path);
  writeFileSync(path, out);

  // The answers file, importing what the answers name as routes.ts did.
  const imports = importsOf(file);
  const named = new Set(answers.flatMap(([, text]) => [...text.matchAll(/\b[A-Za-z_$][\w$]*\b/g)].map((m) => m[0])));
  const bySpecifier = new Map<string, string[]>();
  const add = (specifier: string, id: string) => bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), id]);
  for (const id of named) {
    if (['HomeAnswer', 'StatusAnswer', 'SnapshotAnswer'].includes(id)) add('../module-state/answers.js', id);
    else if (['privacyCounts', 'messageAnswer'].includes(id) && !imports.has(id)) add('#shared/http/schemas.js', id);
    else if (imports.has(id)) add(imports.get(id)!, id);
  }
  const header = [...bySpecifier].map(([specifier, ids]) => `import { ${[...new Set(ids)].sort().join(', ')} } from '${specifier}';`).join('\n');
  const answersPath = join(ROOT, 'functions', module, 'answers.ts');
  writeFileSync(
    answersPath,
    `import type { AnswerTable } from '#shared/http/answers.js';
${header}

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
${answers.map(([id, text]) => `  ${q(id)}: ${text},`).join('\n')}
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
`,
  );
}

/** Drops the module's constants (`const base = ...`) nothing reads any more. */
function pruneConstants(text: string, path: string): string {
  for (;;) {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const unused = file.statements.find((s) => {
      if (!ts.isVariableStatement(s) || s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return false;
      const [decl] = s.declarationList.declarations;
      const name = decl!.name.getText(file);
      const rest = text.slice(0, s.getStart(file)) + text.slice(s.getEnd());
      return !new RegExp(`(?<![\\w$.'"])${name}(?![\\w$'"])`).test(rest);
    });
    if (!unused) return text;
    text = text.slice(0, unused.getFullStart()) + text.slice(unused.getEnd());
  }
}

/** Imported names, by the specifier they come from. */
function importsOf(file: ts.SourceFile): Map<string, string> {
  const found = new Map<string, string>();
  for (const s of file.statements) {
    if (!ts.isImportDeclaration(s) || !s.importClause?.namedBindings || !ts.isNamedImports(s.importClause.namedBindings)) continue;
    for (const e of s.importClause.namedBindings.elements) found.set(e.name.text, (s.moduleSpecifier as ts.StringLiteral).text);
  }
  return found;
}

/** Drops the named imports the file no longer reads, and the declarations left empty. */
function pruneImports(text: string, path: string): string {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: Edit[] = [];
  const body = file.statements
    .filter((s) => !ts.isImportDeclaration(s))
    .map((s) => s.getFullText(file))
    .join('\n');
  const used = (name: string) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(body);
  for (const s of file.statements) {
    if (!ts.isImportDeclaration(s) || !s.importClause?.namedBindings || !ts.isNamedImports(s.importClause.namedBindings)) continue;
    const elements = s.importClause.namedBindings.elements;
    const kept = elements.filter((e) => used(e.name.text));
    if (kept.length === elements.length) continue;
    const spec = (s.moduleSpecifier as ts.StringLiteral).text;
    const typeOnly = s.importClause.isTypeOnly ? 'type ' : '';
    edits.push({
      start: s.getStart(file),
      end: s.getEnd(),
      text: kept.length ? `import ${typeOnly}{ ${kept.map((e) => e.getText(file)).join(', ')} } from '${spec}';` : '',
    });
  }
  return apply(text, edits);
}

for (const module of readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)) {
  await convert(module);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
