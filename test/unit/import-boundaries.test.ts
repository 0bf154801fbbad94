/**
 * No file reaches itself through imports: a circle (type-only edges and
 * dynamic imports included) means two files are one, and breaks the order
 * modules load in. The layers' imports run one way. `shared` never imports `functions`,
 * `infra`, `test` or `bench`; a module (`functions/<module>/...`) never
 * imports another module's internals, only its public entry (`routes.ts`,
 * the rows `functions/routes.ts` gathers); `infra`, `test` and `bench` may
 * import anything. A module's job files (`functions/<module>/jobs/`) are
 * its own; `functions/routes.ts` and `functions/jobs.ts`, which gather the
 * modules' rows, belong to no module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The files of a module others may import: the route rows and their answers (module-state's answers are every module's state routes'). */
const PUBLIC_ENTRIES = new Set(['routes.ts', 'answers.ts']);
/** What shared sits below (it may read package.json, as the user agent does for the version). */
const UPPER_LAYERS = ['functions', 'infra', 'test', 'bench'];
/** `#name/*` of package.json `imports`, by the folder it names. */
const PACKAGE_IMPORTS = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).imports as Record<string, string>;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The repository paths (`shared/ids.ts`) a file's imports name, package imports resolved, packages left out. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)].flatMap(([, specifier]) => {
    const target = resolveSpecifier(file, specifier!);
    return target === null ? [] : [target.replace(/\.js$/, '.ts')];
  });
}

function resolveSpecifier(file: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return posix.normalize(posix.join(posix.dirname(file), specifier));
  for (const [pattern, target] of Object.entries(PACKAGE_IMPORTS)) {
    const prefix = pattern.replace(/\*$/, '');
    if (specifier.startsWith(prefix)) return posix.normalize(target.replace(/\*$/, '') + specifier.slice(prefix.length));
  }
  return null;
}

/** The module a file under functions/ belongs to, or null for files of no module (functions/routes.ts, functions/jobs.ts). */
function moduleOf(path: string): string | null {
  const [top, folder, name] = path.split('/');
  if (top !== 'functions' || name === undefined) return null;
  return folder!;
}

/** The folders package.json `imports` names (`#shared/...`). */
const ALIASED = Object.keys(PACKAGE_IMPORTS).map((name) => name.slice(1).replace(/\/\*$/, ''));

/** Relative imports climbing two folders or more into a folder a package import names (`#shared/...` reads better). */
function chainsOf(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map(([, specifier]) => specifier!)
    .filter((specifier) => specifier.startsWith('../../') && ALIASED.includes(resolveSpecifier(file, specifier)!.split('/')[0]!));
}

/** Why an import crosses a boundary, or null when it may. */
function boundaryBroken(from: string, to: string): string | null {
  const layer = from.split('/')[0];
  const target = to.split('/')[0];
  if (layer === 'shared' && UPPER_LAYERS.includes(target!)) return `shared imports ${target}: shared never imports functions, infra, test or bench`;
  const source = moduleOf(from);
  const owner = moduleOf(to);
  if (source === null || owner === null || source === owner) return null;
  // A module's own folder is what others may enter only by its public entry.
  const [, , name] = to.split('/');
  if (PUBLIC_ENTRIES.has(name!)) return null;
  return `module ${source} imports the internals of module ${owner}: import its public entry (${[...PUBLIC_ENTRIES].join(', ')}) or move what both need to shared`;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The .ts files under a folder of the repository, as repository paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * The import circles of a graph: its strongly connected components of more
 * than one file, or of a file importing itself (Tarjan's algorithm), each
 * listed in path order, the circles in order of their first file.
 */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('import boundaries', () => {
  const files = ['shared', 'functions'].flatMap(sourceFiles);

  it('hold across shared and every module', () => {
    const broken = files.flatMap((file) =>
      importsOf(file, readFileSync(join(ROOT, file), 'utf8')).flatMap((to) => {
        const why = boundaryBroken(file, to);
        return why ? [`${file} -> ${to}: ${why}`] : [];
      }),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('form no circle anywhere in the project, type-only imports included', () => {
    const everyFile = ['shared', 'functions', 'infra', 'test', 'bench', 'clients'].flatMap(sourceFiles);
    const graph = new Map(everyFile.map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))]));
    expect(everyFile.length).toBeGreaterThan(300);
    expect(circlesOf(graph)).toEqual([]);
  });

  it('finds a circle through type-only imports, and none in a chain', () => {
    const graph = new Map([
      ['shared/http/a.ts', importsOf('shared/http/a.ts', "import type { B } from './b.js';")],
      ['shared/http/b.ts', importsOf('shared/http/b.ts', "import { c } from './c.js';")],
      ['shared/http/c.ts', importsOf('shared/http/c.ts', "export type { A } from './a.js';")],
      ['shared/http/d.ts', importsOf('shared/http/d.ts', "import { a } from './a.js';")],
    ]);
    expect(circlesOf(graph)).toEqual([['shared/http/a.ts', 'shared/http/b.ts', 'shared/http/c.ts']]);
    graph.set('shared/http/c.ts', []);
    expect(circlesOf(graph)).toEqual([]);
  });

  it('name the layers by package imports, not ../../ chains (npx tsx infra/codemods/package-imports.ts rewrites them)', () => {
    const everyFile = ['shared', 'functions', 'infra', 'test', 'bench'].flatMap(sourceFiles);
    const chains = everyFile.flatMap((file) => chainsOf(file, readFileSync(join(ROOT, file), 'utf8')).map((specifier) => `${file}: ${specifier}`));
    expect(chains).toEqual([]);
    expect(chainsOf('functions/tags/x.ts', `import { a } from ${"'"}../../shared/ids.js';`)).toEqual(['../../shared/ids.js']);
  });

  it('reads relative, package-import and dynamic imports', () => {
    const text = "import { a } from '#shared/ids.js';\nimport type { B } from '../polls/keys.js';\nconst c = await import('#infra/jobs.js');\nimport 'zod';\n";
    expect(importsOf('functions/tags/x.ts', text)).toEqual(['shared/ids.ts', 'functions/polls/keys.ts', 'infra/jobs.ts']);
  });

  it('refuses what runs upward or into another module', () => {
    expect(boundaryBroken('shared/openapi/write.ts', 'functions/routes.ts')).toMatch(/shared imports functions/);
    expect(boundaryBroken('shared/http/endpoint.ts', 'infra/local/start.ts')).toMatch(/shared imports infra/);
    expect(boundaryBroken('functions/tags/create.ts', 'functions/polls/keys.ts')).toMatch(/module tags imports the internals of module polls/);
    expect(boundaryBroken('functions/polls/jobs/close.ts', 'functions/giveaways/lifecycle.ts')).toMatch(
      /module polls imports the internals of module giveaways/,
    );
  });

  it('lets a module enter another by its public entry, a job file its own module, and infra anything', () => {
    expect(boundaryBroken('functions/polls/routes.ts', 'functions/module-state/routes.ts')).toBeNull();
    expect(boundaryBroken('functions/polls/jobs/close.ts', 'functions/polls/lifecycle.ts')).toBeNull();
    expect(boundaryBroken('functions/routes.ts', 'functions/polls/routes.ts')).toBeNull();
    expect(boundaryBroken('infra/openapi-write.ts', 'functions/routes.ts')).toBeNull();
    expect(boundaryBroken('functions/polls/store.ts', 'shared/db/cursor.ts')).toBeNull();
  });
});
