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

/** The middle value, or the mean of the two in the middle. */
export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
