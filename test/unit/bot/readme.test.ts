/** The bot's README shows the event table as the code has it (clients/bot/coverage.ts prints it). */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { markdownTable } from '../../../clients/bot/coverage.js';

/** A markdown table's rows as trimmed cells, separator rows and column padding left out. */
const rowsOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

it("the README's tables are the event table's rows", () => {
  const readme = readFileSync(new URL('../../../clients/bot/README.md', import.meta.url), 'utf8');
  const shown = readme.slice(readme.indexOf('<!-- table:'), readme.indexOf('<!-- end of table -->'));
  expect(rowsOf(shown)).toEqual(rowsOf(markdownTable()));
});
