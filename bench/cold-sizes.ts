import { coldRequestBench } from './cold.js';
import { sizeRows } from './sizes.js';
import { printRows } from './table.js';

/**
 * `npx tsx bench/cold-sizes.ts`: only the bench's first two sections, the
 * bundle sizes and the cold requests, for a change that may cost a function
 * at load (a logger, a client). BENCH_COLD_ROUNDS and BENCH_COLD_ONLY apply
 * as in `npm run bench`.
 */
const cold = await coldRequestBench();
printRows([...sizeRows(cold), ...cold.rows]);
