/**
 * What each route answers on success, kept apart from its row so that no
 * function bundles a success schema it never runs: only the OpenAPI
 * document and the tests read answers (`loadSpec`, shared/http/load-handler.ts).
 *
 * Each module lists its routes' answers in `functions/<module>/answers.ts`, a
 * table from route id to schema ({@link AnswerTable}), and adds the same
 * table's type to {@link Answers}, so the use case of `endpoint(row, run)`
 * is typed by its row's id:
 *
 * ```ts
 * export const answers = { 'tags.count': CountAnswer } as const satisfies AnswerTable;
 * type Declared = typeof answers;
 * declare module '#shared/http/answers.js' {
 *   interface Answers extends Declared {}
 * }
 * ```
 */
import type * as z from 'zod/mini';
import type { RawAnswer, RouteSpec } from './route.js';

/** A route's success answer: the `data` of the envelope (a Zod object, records of behaviour §6 and §11), or a raw answer (a page, the document itself). */
export type Answer = z.ZodMiniType | RawAnswer;

/** A module's answers, by route id. */
export type AnswerTable = Readonly<Record<string, Answer>>;

/**
 * Every route's answer by id, as types: each module's `answers.ts` adds its
 * own table here (declaration merging). Never a value: nothing a function
 * bundles imports an answer.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module's answers.ts (declaration merging).
export interface Answers {}

/** A route's spec with its answer: what the OpenAPI document and the tests read. */
export interface AnsweredSpec extends RouteSpec {
  response?: Answer;
}
