/**
 * The bytes an answer may take (behaviour §15), kept with the table layer
 * because a page read from the table ends where its answer would pass them;
 * the HTTP layer reads the same figures from here.
 */

/** Every answer is at most 1 MiB (behaviour §15). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The JSON one list of an answer may take (behaviour §15): a page, or the
 * records a snapshot or a settings delete shows of a list that can grow
 * without bound. What else such an answer holds (page fields, cursor, a
 * settings record) is far under the 128 KiB left; a snapshot gives its
 * bounded lists' bytes to the count as well (`moduleSnapshot`).
 */
export const LIST_BYTES = MAX_ANSWER_BYTES - 128 * 1024;

/** The bytes a value takes in an answer's JSON (bigints as the answer writes them: strings). */
export const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? '', 'utf8');

/**
 * A list's bytes as records are taken into it in order: each is taken while
 * the list stays within `bytes` of JSON (brackets and commas counted), and
 * once one is refused every later one is, so a list shown is always a head
 * of the list, without gaps.
 */
export class ListBudget {
  private left: number;

  constructor(bytes: number = LIST_BYTES) {
    this.left = bytes - 2;
  }

  take(record: unknown): boolean {
    const bytes = jsonBytes(record) + 1;
    if (bytes > this.left) {
      this.left = -1;
      return false;
    }
    this.left -= bytes;
    return true;
  }
}

/** The longest head of `records` whose JSON takes at most `bytes`. */
export function fitting<T>(records: readonly T[], bytes: number = LIST_BYTES): T[] {
  const budget = new ListBudget(bytes);
  const shown: T[] = [];
  for (const record of records) {
    if (!budget.take(record)) break;
    shown.push(record);
  }
  return shown;
}
