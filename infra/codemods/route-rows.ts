/**
 * Moves each endpoint's spec from its handler file onto its route row:
 * `tsx infra/codemods/route-rows.ts`. A row of `functions/<module>/routes.ts`
 * in the old shape (`{ id, method, path, access, file, summary }` in the
 * `routes` array) whose file exports `handler = endpoint({ ...spec }, run)`
 * becomes a declaration of its own,
 * `export const vote = route({ id, method, path, access, summary, body, actor, response, ... })`
 * (the path schema named `params`, `file` kept only where the id does not
 * name the file), listed by name in `routes`; the handler becomes
 * `endpoint(routes.vote, run)` with `import * as routes from './routes.js'`.
 * The identifiers the spec names are imported by routes.ts and no longer by
 * the handler when nothing else there uses them. Run `npx biome check --write .`
 * after it (import order, line width).
 *
 * Idempotent: a row already declared by name, or a handler already reading
 * its row, is left alone, so re-run it after merging a branch that still
 * adds rows in the old shape. It lists every row and handler it could not
 * convert, with the reason, for a hand fix; it exits 1 when there are any.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const SPEC_KEYS = new Set(['query', 'body', 'path', 'actor', 'answerFailures', 'errorPage', 'owned', 'response']);
/** Row properties in the order rows are written. */
const ROW_KEYS = ['id', 'method', 'path', 'access', 'summary'];

interface Edit {
  start: number;
  end: number;
  text: string;
}

const apply = (text: string, edits: Edit[]) =>
  [...edits].sort((a, b) => b.start - a.start).reduce((out, edit) => `${out.slice(0, edit.start)}${edit.text}${out.slice(edit.end)}`, text);

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

const posixOf = (path: string) => path.split(sep).join('/');

/** `polls.create-poll` -> `createPoll`. */
function exportNameOf(id: string): string {
  const operation = id.slice(id.indexOf('.') + 1);
  return operation.replace(/[-.](\w)/g, (_, c: string) => c.toUpperCase());
}

/** The file a row names when the id follows the convention of shared/http/route.ts fileOf. */
function conventionalFile(id: string): string {
  const dot = id.indexOf('.');
  return `functions/${id.slice(0, dot)}/${id.slice(dot + 1)}.ts`;
}

/** An import of one name: where from, how (named, namespace, default), and whether type-only. */
interface Imported {
  name: string;
  from: string;
  kind: 'named' | 'namespace' | 'default';
  /** The exported name, for `import { a as b }`. */
  property?: string;
  typeOnly: boolean;
  declaration: ts.ImportDeclaration;
  node: ts.Node;
}

function importsOf(source: ts.SourceFile): Map<string, Imported> {
  const found = new Map<string, Imported>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const clause = statement.importClause;
    if (clause.name)
      found.set(clause.name.text, { name: clause.name.text, from, kind: 'default', typeOnly: clause.isTypeOnly, declaration: statement, node: clause.name });
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings))
      found.set(bindings.name.text, { name: bindings.name.text, from, kind: 'namespace', typeOnly: clause.isTypeOnly, declaration: statement, node: bindings });
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        found.set(element.name.text, {
          name: element.name.text,
          from,
          kind: 'named',
          property: element.propertyName?.text,
          typeOnly: clause.isTypeOnly || element.isTypeOnly,
          declaration: statement,
          node: element,
        });
  }
  return found;
}

/** The identifiers an expression reads (not property names). */
function identifiersIn(node: ts.Node, out = new Set<string>()): Set<string> {
  if (ts.isIdentifier(node)) {
    const parent = node.parent;
    const isName =
      (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
      (ts.isPropertyAssignment(parent) && parent.name === node) ||
      ts.isTypeReferenceNode(parent);
    if (!isName) out.add(node.text);
  }
  ts.forEachChild(node, (child) => {
    identifiersIn(child, out);
  });
  return out;
}

/** How many times a name is read in a file, outside its imports. */
function usesOf(source: ts.SourceFile, name: string, skip: ts.Node[]): number {
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (skip.includes(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) && node.text === name) {
      const parent = node.parent;
      const isName = (ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node;
      if (!isName) count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

/** The import lines of `names` (each as imported by a file in `dirOf(name)`), spelled for a file in `toDir`. */
function importLines(names: Imported[], dirOf: (item: Imported) => string, toDir: string): string[] {
  const respell = (item: Imported) => {
    if (!item.from.startsWith('.')) return item.from;
    const spelled = posix.relative(toDir, posix.join(dirOf(item), item.from));
    return spelled.startsWith('.') ? spelled : `./${spelled}`;
  };
  const lines: string[] = [];
  const named = new Map<string, string[]>();
  for (const item of names) {
    const from = respell(item);
    if (item.kind === 'namespace') lines.push(`import ${item.typeOnly ? 'type ' : ''}* as ${item.name} from '${from}';`);
    else if (item.kind === 'default') lines.push(`import ${item.typeOnly ? 'type ' : ''}${item.name} from '${from}';`);
    else {
      const spelled = `${item.typeOnly ? 'type ' : ''}${item.property ? `${item.property} as ` : ''}${item.name}`;
      named.set(from, [...(named.get(from) ?? []), spelled]);
    }
  }
  for (const [from, specs] of named) lines.push(`import { ${specs.join(', ')} } from '${from}';`);
  return lines;
}

/** Edits removing import specifiers (or whole declarations) of names a file no longer reads. */
function removeImports(source: ts.SourceFile, names: Imported[]): Edit[] {
  const edits: Edit[] = [];
  const byDeclaration = new Map<ts.ImportDeclaration, Imported[]>();
  for (const item of names) byDeclaration.set(item.declaration, [...(byDeclaration.get(item.declaration) ?? []), item]);
  for (const [declaration, gone] of byDeclaration) {
    const clause = declaration.importClause!;
    const all = [
      ...(clause.name ? [clause.name.text] : []),
      ...(clause.namedBindings
        ? ts.isNamespaceImport(clause.namedBindings)
          ? [clause.namedBindings.name.text]
          : clause.namedBindings.elements.map((e) => e.name.text)
        : []),
    ];
    const kept = all.filter((name) => !gone.some((item) => item.name === name));
    if (kept.length === 0) {
      edits.push({ start: declaration.getFullStart(), end: declaration.getEnd(), text: '' });
      continue;
    }
    const bindings = clause.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings) || clause.name) return [];
    const text = bindings.elements
      .filter((e) => kept.includes(e.name.text))
      .map((e) => e.getText(source))
      .join(', ');
    edits.push({ start: bindings.getStart(source), end: bindings.getEnd(), text: `{ ${text} }` });
  }
  return edits;
}

const problems: string[] = [];
let converted = 0;

/** The one `export const handler = endpoint(spec, run)` of a handler file. */
function handlerCall(source: ts.SourceFile): ts.CallExpression | undefined {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (ts.isIdentifier(declaration.name) && declaration.name.text === 'handler' && init && ts.isCallExpression(init)) {
        if (ts.isIdentifier(init.expression) && init.expression.text === 'endpoint') return init;
      }
    }
  }
  return undefined;
}

function convertModule(routesFile: string): void {
  const routesPath = join(ROOT, routesFile);
  const routesText = readFileSync(routesPath, 'utf8');
  const source = parse(routesPath, routesText);
  const moduleDir = posix.dirname(routesFile);

  // `const file = (name) => `functions/<module>/${name}.ts``: what `file('x')` names.
  const fileOfCall = (node: ts.Expression): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'file') {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) return `${moduleDir}/${arg.text}.ts`;
    }
    return undefined;
  };

  const routesStatement = source.statements.find(
    (s): s is ts.VariableStatement =>
      ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === 'routes'),
  );
  const list = routesStatement?.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === 'routes')?.initializer;
  // A file of row makers (functions/module-state/routes.ts) has no table of its own.
  if (!routesStatement || !list || !ts.isArrayLiteralExpression(list)) return;

  const topNames = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) topNames.add(d.name.text);
    if (ts.isFunctionDeclaration(statement) && statement.name) topNames.add(statement.name.text);
  }
  const routesImports = importsOf(source);
  for (const name of routesImports.keys()) topNames.add(name);

  const rows: string[] = [];
  const routesEdits: Edit[] = [];
  const newImports: Imported[] = [];
  const importDirs = new Map<Imported, string>();

  for (const element of list.elements) {
    if (!ts.isObjectLiteralExpression(element)) continue;
    const props = new Map<string, ts.PropertyAssignment>();
    let plain = true;
    for (const p of element.properties) {
      if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) props.set(p.name.text, p);
      else plain = false;
    }
    const idNode = props.get('id')?.initializer;
    const id = idNode && (ts.isStringLiteral(idNode) || ts.isNoSubstitutionTemplateLiteral(idNode)) ? idNode.text : undefined;
    const where = `${routesFile}: ${id ?? element.getText(source).slice(0, 60)}`;
    if (!plain || !id) {
      problems.push(`${where}: a row that is not a plain object with a literal id`);
      continue;
    }
    if (props.has('handler')) {
      problems.push(`${where}: serves an export other than handler`);
      continue;
    }
    const fileNode = props.get('file')?.initializer;
    const file = fileNode && fileOfCall(fileNode);
    if (!file) {
      problems.push(`${where}: its file is not file('name') nor a string`);
      continue;
    }
    const shared = allRows.filter((row) => row === file).length > 1;
    if (shared) {
      problems.push(`${where}: ${file} serves several rows, so its spec is not one row's`);
      continue;
    }
    const handlerPath = join(ROOT, file);
    if (!existsSync(handlerPath)) {
      problems.push(`${where}: ${file} does not exist`);
      continue;
    }
    const handlerText = readFileSync(handlerPath, 'utf8');
    const handlerSource = parse(handlerPath, handlerText);
    const call = handlerCall(handlerSource);
    const specNode = call?.arguments[0];
    if (call?.arguments.length !== 2 || !specNode || !ts.isObjectLiteralExpression(specNode)) {
      problems.push(`${where}: ${file} does not export handler = endpoint({ ...spec }, run)`);
      continue;
    }
    const name = exportNameOf(id);
    if (topNames.has(name)) {
      problems.push(`${where}: ${routesFile} already declares ${name}`);
      continue;
    }
    const handlerImports = importsOf(handlerSource);
    if (handlerImports.has('routes') || usesOf(handlerSource, 'routes', []) > 0) {
      problems.push(`${where}: ${file} already names something routes`);
      continue;
    }

    // The spec's properties, each `key: expression`, and what they read.
    const specProps: string[] = [];
    const read = new Set<string>();
    let specOk = true;
    for (const p of specNode.properties) {
      const key = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
      if (!key || !SPEC_KEYS.has(key) || !(ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p))) {
        specOk = false;
        break;
      }
      const value = ts.isPropertyAssignment(p) ? p.initializer : p.name;
      identifiersIn(value, read);
      specProps.push(`${key === 'path' ? 'params' : key}: ${value.getText(handlerSource)}`);
    }
    if (!specOk) {
      problems.push(`${where}: ${file}'s spec has a property that is not one of ${[...SPEC_KEYS].join(', ')}`);
      continue;
    }
    if (!specProps.some((p) => p.startsWith('response:'))) {
      problems.push(`${where}: ${file}'s spec names no response`);
      continue;
    }
    const local = [...read].filter((n) => !handlerImports.has(n) && n !== 'undefined');
    if (local.length) {
      problems.push(`${where}: ${file}'s spec reads ${local.join(', ')}, declared in the handler file: move it beside the schemas`);
      continue;
    }
    const needed = [...read].filter((n) => n !== 'undefined').map((n) => handlerImports.get(n)!);
    const clash = needed.find((item) => {
      const known = routesImports.get(item.name) ?? newImports.find((n) => n.name === item.name);
      if (!known) return topNames.has(item.name);
      const dir = importDirs.get(known) ?? posix.dirname(routesFile);
      const a = known.from.startsWith('.') ? posix.join(dir, known.from) : known.from;
      const b = item.from.startsWith('.') ? posix.join(posix.dirname(file), item.from) : item.from;
      return a !== b;
    });
    if (clash) {
      problems.push(`${where}: ${routesFile} already names ${clash.name} otherwise`);
      continue;
    }
    for (const item of needed) {
      if (routesImports.has(item.name) || newImports.some((n) => n.name === item.name)) continue;
      newImports.push(item);
      importDirs.set(item, posix.dirname(file));
    }

    // The handler: reads its row, and imports no longer what only the spec read.
    const routesSpec = posix.relative(posix.dirname(file), moduleDir) || '.';
    const handlerEdits: Edit[] = [{ start: specNode.getStart(handlerSource), end: specNode.getEnd(), text: `routes.${name}` }];
    const unused = needed.filter((item) => usesOf(handlerSource, item.name, [specNode]) === 0);
    handlerEdits.push(...removeImports(handlerSource, unused));
    const lastImport = [...handlerSource.statements].reverse().find(ts.isImportDeclaration);
    const at = lastImport ? lastImport.getEnd() : 0;
    handlerEdits.push({
      start: at,
      end: at,
      text: `${lastImport ? '\n' : ''}import * as routes from '${routesSpec.startsWith('.') ? routesSpec : `./${routesSpec}`}/routes.js';${lastImport ? '' : '\n'}`,
    });
    writeFileSync(handlerPath, apply(handlerText, handlerEdits));

    // The row: its own declaration, named in the list.
    const rowProps = ROW_KEYS.map((key) => `${key}: ${props.get(key)!.initializer.getText(source)}`);
    if (file !== conventionalFile(id)) rowProps.splice(4, 0, `file: ${fileNode.getText(source)}`);
    rows.push(`export const ${name} = route({ ${[...rowProps, ...specProps].join(', ')} });\n`);
    topNames.add(name);
    routesEdits.push({ start: element.getStart(source), end: element.getEnd(), text: name });
    converted += 1;
  }

  if (!rows.length) return;
  routesEdits.push({ start: routesStatement.getStart(source), end: routesStatement.getStart(source), text: `${rows.join('\n')}\n` });

  // routes.ts imports `route` and what the rows now read.
  const routeImport = source.statements.find(
    (s): s is ts.ImportDeclaration => ts.isImportDeclaration(s) && (s.moduleSpecifier as ts.StringLiteral).text === '#shared/http/route.js',
  );
  const respelled = importLines(newImports, (item) => importDirs.get(item)!, moduleDir);
  if (routeImport && !routesImports.has('route')) {
    const spelled = routeImport
      .getText(source)
      .replace(/^import type \{/, 'import {')
      .replace(/\{\s*([^}]*?)\s*\}/, (_, inner: string) => {
        const names = inner
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
          .map((n) => (n.startsWith('type ') || routeImport.importClause?.isTypeOnly !== true ? n : `type ${n}`));
        return `{ ${[...names, 'route'].join(', ')} }`;
      });
    routesEdits.push({ start: routeImport.getStart(source), end: routeImport.getEnd(), text: spelled });
  } else if (!routeImport) respelled.unshift("import { route } from '#shared/http/route.js';");
  const lastImport = [...source.statements].reverse().find(ts.isImportDeclaration);
  const at = lastImport ? lastImport.getEnd() : 0;
  if (respelled.length) routesEdits.push({ start: at, end: at, text: `\n${respelled.join('\n')}` });
  let next = apply(routesText, routesEdits);

  // The `file` helper, once no row calls it.
  const after = parse(routesPath, next);
  const helper = after.statements.find(
    (s): s is ts.VariableStatement =>
      ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === 'file'),
  );
  if (helper && usesOf(after, 'file', [helper]) === 0) next = apply(next, [{ start: helper.getFullStart(), end: helper.getEnd(), text: '' }]);
  writeFileSync(routesPath, next);
}

/** Every file named by a plain row, to tell a handler serving several rows. */
const routeFiles = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'functions', entry.name, 'routes.ts')))
  .map((entry) => `functions/${entry.name}/routes.ts`)
  .sort();
const allRows: string[] = routeFiles.flatMap((routesFile) => {
  const text = readFileSync(join(ROOT, routesFile), 'utf8');
  const moduleDir = posix.dirname(routesFile);
  return [...text.matchAll(/file: (?:file\('([^']+)'\)|'([^']+)')/g)].map((m) => (m[1] ? `${moduleDir}/${m[1]}.ts` : m[2]!));
});

for (const routesFile of routeFiles) convertModule(routesFile);

// Handlers still declaring their own spec, whatever row names them.
for (const entry of readdirSync(join(ROOT, 'functions'), { withFileTypes: true, recursive: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
  const file = posixOf(relative(ROOT, join(entry.parentPath, entry.name)));
  const call = handlerCall(parse(file, readFileSync(join(ROOT, file), 'utf8')));
  if (call?.arguments[0] && ts.isObjectLiteralExpression(call.arguments[0])) problems.push(`${file}: still declares its own spec`);
}

console.log(`${converted} route rows now carry their spec; their handlers read it`);
if (problems.length) {
  console.log(`Not converted (${new Set(problems).size}), for a hand fix:\n  ${[...new Set(problems)].join('\n  ')}`);
  process.exitCode = 1;
}
