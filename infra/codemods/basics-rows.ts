/**
 * Moves a module's basics specs from `functions/<module>/basics.ts` onto
 * rows of its `routes.ts`: `tsx infra/codemods/basics-rows.ts`. A routes.ts
 * in the old shape (`const basics = moduleBasicsRoutes(module, { summaries })`,
 * listed as `...basics.settings` and `...basics.privacy`) gets one export
 * per basic made by the row makers of functions/module-state/routes.ts
 * (`export const getSettings = settingsReadRoute(module, { summary, response })`),
 * listed by name; its basics.ts serves each from its row
 * (`settingsReadEndpoint(routes.getSettings)`, the module's function as the
 * second argument). Run `npx biome check --write .` after it.
 *
 * Idempotent: a module without `moduleBasicsRoutes(` is left alone. It lists
 * what it could not convert and exits 1 when there is any.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const BASICS = ['getSettings', 'updateSettings', 'deleteSettings', 'privacyGetUserEntries', 'privacyDeleteUserEntries'] as const;
const ROW_MAKER: Record<(typeof BASICS)[number], string> = {
  getSettings: 'settingsReadRoute',
  updateSettings: 'settingsUpdateRoute',
  deleteSettings: 'settingsDeleteRoute',
  privacyGetUserEntries: 'privacyCountRoute',
  privacyDeleteUserEntries: 'privacyDeleteRoute',
};
/** Spec properties of the old makers that move to the row; the others (`prepare`, `remove`) stay with the handler. */
const ROW_KEYS = ['body', 'owned', 'response'];

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
const problems: string[] = [];
let converted = 0;

function convert(module: string): void {
  const routesFile = join(ROOT, 'functions', module, 'routes.ts');
  const basicsFile = join(ROOT, 'functions', module, 'basics.ts');
  if (!existsSync(routesFile) || !existsSync(basicsFile)) return;
  let routes = readFileSync(routesFile, 'utf8');
  let basics = readFileSync(basicsFile, 'utf8');
  if (!routes.includes('moduleBasicsRoutes(')) return;
  const routesSource = parse(routesFile, routes);
  const basicsSource = parse(basicsFile, basics);

  // The old declaration: const basics = moduleBasicsRoutes('m', { getSettings: 'summary' | { summary, ... }, ... });
  const statement = routesSource.statements.find(
    (s): s is ts.VariableStatement => ts.isVariableStatement(s) && s.getText(routesSource).includes('moduleBasicsRoutes('),
  );
  const call = statement?.declarationList.declarations[0]?.initializer;
  const declared = call && ts.isCallExpression(call) ? call.arguments[1] : undefined;
  if (!statement || !declared || !ts.isObjectLiteralExpression(declared)) {
    problems.push(`${routesFile}: moduleBasicsRoutes(module, { ... }) not found as one declaration`);
    return;
  }
  const summaries = new Map<string, ts.Expression>();
  for (const p of declared.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) summaries.set(p.name.text, p.initializer);

  // The old exports of basics.ts: export const getSettings = settingsReadEndpoint({ ... }) or privacyCountEndpoint(fn).
  const exports = new Map<string, { node: ts.VariableStatement; maker: string; args: readonly ts.Expression[] }>();
  for (const s of basicsSource.statements) {
    const d = ts.isVariableStatement(s) ? s.declarationList.declarations[0] : undefined;
    if (d && ts.isIdentifier(d.name) && d.initializer && ts.isCallExpression(d.initializer) && ts.isIdentifier(d.initializer.expression)) {
      exports.set(d.name.text, { node: s as ts.VariableStatement, maker: d.initializer.expression.text, args: d.initializer.arguments });
    }
  }

  const rows: string[] = [];
  const named = new Set<string>();
  const edits: { start: number; end: number; text: string }[] = [];
  for (const basic of BASICS) {
    const summary = summaries.get(basic);
    if (!summary) continue;
    const old = exports.get(basic);
    if (!old) {
      problems.push(`${basicsFile}: no export ${basic} for the row moduleBasicsRoutes declares`);
      return;
    }
    const [first, ...rest] = old.args;
    const summaryText = summary.getText(routesSource);
    if (basic.startsWith('privacy')) {
      if (!first || ts.isObjectLiteralExpression(first)) return void problems.push(`${basicsFile}: ${basic} is not ${old.maker}(fn)`);
      rows.push(`export const ${basic} = ${ROW_MAKER[basic]}('${module}', ${summaryText});`);
      edits.push({ start: first.getStart(basicsSource), end: first.getStart(basicsSource), text: `routes.${basic}, ` });
      continue;
    }
    if (!first || !ts.isObjectLiteralExpression(first) || rest.length) return void problems.push(`${basicsFile}: ${basic} is not ${old.maker}({ ... })`);
    const props = new Map<string, string>();
    for (const p of first.properties) {
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) props.set(p.name.text, p.initializer.getText(basicsSource));
      else if (ts.isShorthandPropertyAssignment(p)) props.set(p.name.text, p.name.text);
    }
    const rowProps = ROW_KEYS.filter((key) => props.has(key)).map((key) => `${key}: ${props.get(key)}`);
    for (const key of ROW_KEYS) if (props.has(key)) named.add(props.get(key)!);
    const head = ts.isObjectLiteralExpression(summary) ? summary.properties.map((p) => p.getText(routesSource)).join(', ') : `summary: ${summaryText}`;
    rows.push(`export const ${basic} = ${ROW_MAKER[basic]}('${module}', { ${[head, ...rowProps].join(', ')} });`);
    const handlerArg = props.get('prepare') ?? props.get('remove');
    edits.push({ start: first.getStart(basicsSource), end: first.getEnd(), text: `routes.${basic}${handlerArg ? `, ${handlerArg}` : ''}` });
  }

  // routes.ts: the rows in place of the declaration, listed by name, their makers and schemas imported.
  routes = `${routes.slice(0, statement.getStart(routesSource))}${rows.join('\n')}${routes.slice(statement.getEnd())}`;
  const has = (basic: string) => summaries.has(basic);
  routes = routes.replace(/\.\.\.basics\.settings,/, `${['getSettings', 'updateSettings', 'deleteSettings'].filter(has).join(',\n  ')},`);
  routes = routes.replace(/\.\.\.basics\.privacy,/, 'privacyGetUserEntries,\n  privacyDeleteUserEntries,');
  const makers = BASICS.filter(has)
    .map((basic) => ROW_MAKER[basic])
    .sort();
  routes = routes.replace(
    /import \{([^}]*)\bmoduleBasicsRoutes,?([^}]*)\} from '(\.\.\/module-state\/routes\.js)';/,
    (_all, before: string, after: string, from: string) => {
      const names = `${before},${after}`
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      return `import { ${[...names, ...makers].join(', ')} } from '${from}';`;
    },
  );
  const imported = new Set(
    routesSource.statements.flatMap((s) =>
      ts.isImportDeclaration(s) && s.importClause?.namedBindings && ts.isNamedImports(s.importClause.namedBindings)
        ? s.importClause.namedBindings.elements.map((e) => e.name.text)
        : [],
    ),
  );
  const imports: string[] = [];
  for (const s of basicsSource.statements) {
    if (!ts.isImportDeclaration(s) || !s.importClause?.namedBindings || !ts.isNamedImports(s.importClause.namedBindings)) continue;
    const wanted = s.importClause.namedBindings.elements.map((e) => e.name.text).filter((n) => named.has(n) && !imported.has(n));
    if (wanted.length) imports.push(`import { ${wanted.join(', ')} } from ${s.moduleSpecifier.getText(basicsSource)};`);
  }
  routes = routes.replace(/(from '\.\.\/module-state\/routes\.js';\n)/, `$1${imports.join('\n')}${imports.length ? '\n' : ''}`);

  // basics.ts: each export reads its row; imports the rows took are dropped.
  basics = [...edits].sort((a, b) => b.start - a.start).reduce((out, e) => `${out.slice(0, e.start)}${e.text}${out.slice(e.end)}`, basics);
  const after = parse(basicsFile, basics);
  const body = after.statements
    .filter((s) => !ts.isImportDeclaration(s))
    .map((s) => s.getText(after))
    .join('\n');
  const used = (name: string) => new RegExp(`\\b${name}\\b`).test(body);
  const kept: string[] = [];
  for (const s of after.statements) {
    if (!ts.isImportDeclaration(s)) continue;
    const bindings = s.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) {
      kept.push(s.getText(after));
      continue;
    }
    const names = bindings.elements.filter((e) => used(e.name.text)).map((e) => e.getText(after));
    if (names.length) kept.push(`import { ${names.join(', ')} } from ${s.moduleSpecifier.getText(after)};`);
  }
  kept.push("import * as routes from './routes.js';");
  const firstImport = after.statements.find(ts.isImportDeclaration)!;
  const lastImport = [...after.statements].reverse().find(ts.isImportDeclaration)!;
  basics = `${basics.slice(0, firstImport.getStart(after))}${kept.join('\n')}${basics.slice(lastImport.getEnd())}`;

  writeFileSync(routesFile, routes);
  writeFileSync(basicsFile, basics);
  converted++;
}

for (const module of readdirSync(join(ROOT, 'functions'))) convert(module);
console.log(`${converted} modules' basics rows now carry their spec; their basics read them`);
for (const problem of problems) console.log(`  not converted: ${problem}`);
process.exitCode = problems.length ? 1 : 0;
