/**
 * Rewrites relative imports that leave their layer or climb two folders
 * (`../../shared/ids.js`) into the package imports of package.json
 * (`#shared/ids.js`), in place, in every .ts file of the layers:
 * `tsx infra/codemods/package-imports.ts`. Imports within a folder or one
 * folder up (`./keys.js`, `../schemas.js`) stay as they are. Idempotent:
 * re-run it after merging a branch that still spells `../../`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

const ROOT = process.cwd();
const ALIASED = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports as Record<string, string>).map((name) =>
  name.replace(/^#/, '').replace(/\/\*$/, ''),
);
const FOLDERS = [...ALIASED, 'bench'];
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.\.?\/[^'"]+)\2/gm;

function rewrite(file: string, text: string): string {
  const layer = file.split('/')[0];
  return text.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const target = posix.normalize(posix.join(posix.dirname(file), specifier));
    const top = target.split('/')[0]!;
    if (!ALIASED.includes(top) || (top === layer && !specifier.startsWith('../../'))) return whole;
    return `${lead}${quote}#${target}${quote}`;
  });
}

let changed = 0;
for (const folder of FOLDERS) {
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/');
    const text = readFileSync(join(ROOT, file), 'utf8');
    const next = rewrite(file, text);
    if (next !== text) {
      writeFileSync(join(ROOT, file), next);
      changed += 1;
    }
  }
}
console.log(`${changed} files now import across layers by package imports (#${ALIASED.join('/, #')}/)`);
