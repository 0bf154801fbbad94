import type { ColdResult } from './cold.js';
import { type Row, kib } from './table.js';

/**
 * Bundle size budget over the SDK floor bundle (minified, tree-shaken): issue
 * 8's target, enforced by test/infra/bundle-budget.test.ts. The largest
 * bundles parse feeds (fast-xml-parser) or create polls. The largest may be
 * 65 KiB over issue 8's 120 since the functions that fetch feeds carry what
 * issue 31 asks for: the full HTML named-entity set (`entities`, 38 KiB;
 * feeds use those names undeclared) and the address classes a source may
 * not reach (`ipaddr.js`, 12.5 KiB, and the code connecting to the checked
 * address). And 3 KiB more (188) for what every function now carries: its
 * request log line and metrics (shared/observe, about 2.5 KiB, issue 36) and
 * its own route row (issue 33). And about 6 KiB more (median 63,
 * largest 193) for what every mutating function now carries: the handling
 * of `Idempotency-Key` and its store (issue 41; functions answering reads
 * are built without it, `keylessReads` in infra/build-plugins.ts). And 3 KiB
 * more for the largest (196), socials' creates: the answer sealed by the key
 * (issue 41) and the source read under one deadline through
 * `stream.pipeline` (issue 42). And about 7 KiB more for every function
 * (median 70, largest 201): the one table layer (issue 43), whose entities
 * carry all their operations (`shared/db/entity.ts`, 4.5 KiB minified) and
 * the expressions built from plain objects (`expression.ts`, 2.3 KiB), where
 * a store used to carry only the commands it spelled. Operations as free
 * functions (`get(Entity, ...)`) would let a bundle carry only those it calls.
 * And 2 KiB more at the median (72): the statistics batch route (issue 45)
 * is one more function above the median, which moves it one bundle up (to
 * 71.4 KiB over the floor), and the statistics fetch carries the reader of
 * batched records (about 1.4 KiB).
 * And 0.3 KiB more for the largest (202): the dashboard's session as a
 * credential (issue 46), whose guild check and acting member every function
 * carries in its endpoint factory, as it carries a guild key's.
 */
export const SIZE_BUDGET = { medianOverFloorKiB: 72, largestOverFloorKiB: 202 };

/** Sizes of every function bundle against the floor bundle of the same build. */
export function sizeRows({ sizes, floorBytes }: ColdResult): Row[] {
  const sorted = [...sizes].sort((a, b) => a[1] - b[1]);
  const [midName, mid] = sorted[Math.floor(sorted.length / 2)]!;
  const [bigName, big] = sorted[sorted.length - 1]!;
  const over = (bytes: number) => `floor + ${((bytes - floorBytes) / 1024).toFixed(1)} KiB`;
  return [
    {
      section: 'bundles',
      measure: 'functions bundled',
      value: String(sizes.size),
      note: 'one bundle per handler file or named export (routes sharing one share it), the authorizer, each job',
    },
    {
      section: 'bundles',
      measure: 'SDK floor bundle (baseline)',
      value: kib(floorBytes),
      note: 'DynamoDBClient + DocumentClient + GetItem, same build, env credentials only',
    },
    {
      section: 'bundles',
      measure: 'median bundle',
      value: over(mid),
      note: `${kib(mid)} (${midName}); budget (test and issue target) floor + ${SIZE_BUDGET.medianOverFloorKiB} KiB`,
    },
    {
      section: 'bundles',
      measure: 'largest bundle',
      value: over(big),
      note: `${kib(big)} (${bigName}); budget (test and issue target) floor + ${SIZE_BUDGET.largestOverFloorKiB} KiB`,
    },
  ];
}
