/**
 * How much of a long piece of work (a catch-up over a million members, a
 * delete of millions of records) one run may do before it stores where it
 * stopped and asks for the next run (behaviour §15): at most `pages` pages,
 * and no page started at or after `until` (epoch ms).
 */
export interface RunBudget {
  pages: number;
  until: number;
}

/** A run stops starting pages this long before its function's time limit (a page's writes take a few seconds). */
const RUN_MARGIN_MS = 10_000;

/** A page count from the environment (tests and the bench lower it), else `fallback`. */
function pagesFrom(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? Math.min(value, fallback) : fallback;
}

/** A scheduled run's budget from the time its function has left (the Lambda context's): `maxPages`, lowered by the environment variable `pagesEnv`. */
export const runBudget = (remainingMs: number, maxPages: number, pagesEnv: string): RunBudget => ({
  pages: pagesFrom(pagesEnv, maxPages),
  until: Date.now() + remainingMs - RUN_MARGIN_MS,
});

/** What a call answered through the API does before answering (its function answers within 10 s). */
export const answerBudget = (maxPages: number, pagesEnv: string, ms = 4_000): RunBudget => ({ pages: pagesFrom(pagesEnv, maxPages), until: Date.now() + ms });

/** Whether a run that did `pages` pages may start another: always the first, so every run moves its work on. */
export const mayGoOn = (budget: RunBudget, pages: number) => pages === 0 || (pages < budget.pages && Date.now() < budget.until);
