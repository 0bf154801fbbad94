import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Handler } from './endpoint.js';
import type { AnsweredSpec, AnswerTable } from './answers.js';
import { type Entry, type Route, entryOf, splitEntry } from './route.js';

/** The repository root, where route `file`s are relative to. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const loaded = new Map<string, Promise<Handler>>();

function importHandler(entry: string): Promise<Handler> {
  let handler = loaded.get(entry);
  if (!handler) {
    const { file, handler: name } = splitEntry(entry);
    handler = import(pathToFileURL(join(ROOT, file)).href).then((mod: Record<string, Handler | undefined>) => {
      const exported = mod[name];
      if (typeof exported !== 'function') throw new Error(`${file} exports no ${name}`);
      return exported;
    });
    loaded.set(entry, handler);
  }
  return handler;
}

/** The handler of a route's file (or its named export), imported once, as Lambda would load its bundle: what local mode runs. */
export function loadHandler(route: Entry): Promise<Handler> {
  return importHandler(entryOf(route));
}

/**
 * Every route's answer by id (each module's `answers.ts`). Named by a value,
 * not a literal, so no bundle carries it: only the OpenAPI document and the
 * tests read answers.
 */
const ANSWER_TABLE = '#functions/answers.js';
let answerTable: Promise<AnswerTable> | undefined;

/** A route's spec, as its row declares it, with its answer: what the OpenAPI document and the tests read. No handler is imported. */
export async function loadSpec(route: Route): Promise<Route & AnsweredSpec> {
  answerTable ??= (import(ANSWER_TABLE) as Promise<{ answers: AnswerTable }>).then((table) => table.answers);
  return { ...route, response: (await answerTable)[route.id] };
}
