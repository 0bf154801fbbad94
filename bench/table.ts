/** A benchmark figure: what was measured, its value, and what it is compared with. */
export interface Row {
  section: string;
  measure: string;
  value: string;
  note?: string;
}

export function printRows(rows: Row[]): void {
  const header = ['section', 'measure', 'value', 'note'];
  const cells = rows.map((r) => [r.section, r.measure, r.value, r.note ?? '']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
