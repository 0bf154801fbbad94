import type * as z from 'zod/mini';
import { routes } from '#functions/routes.js';
import type { AnsweredSpec } from '#shared/http/answers.js';
import { loadSpec } from '#shared/http/load-handler.js';
import { matchPath } from '#shared/http/route.js';
import { fieldName } from '#shared/http/validation.js';

/**
 * Checks success answers against the `response` their route declares, so a
 * handler and the OpenAPI document (generated from the same schema) cannot
 * drift: every field declared with its type, and no field undeclared.
 */

/** The declared answer of the route serving `method path` (`/v1` or not), or null when none is known. */
export async function declaredAnswer(method: string, path: string): Promise<{ routeId: string; response: AnsweredSpec['response'] } | null> {
  const match = matchPath(routes, path.replace(/^\/v1(?=\/)/, ''));
  const route = match?.routes.find((r) => r.method === (method === 'HEAD' ? 'GET' : method));
  if (!route) return null;
  return { routeId: route.id, response: (await loadSpec(route)).response };
}

/** What is wrong with `data` as an answer of this schema: missing or mistyped fields, then undeclared ones. */
export function answerProblems(schema: z.ZodMiniType, data: unknown): string[] {
  const result = schema.safeParse(data);
  if (!result.success) return result.error.issues.map((issue) => `data.${fieldName(issue.path)}: ${issue.message}`.replace('data.:', 'data:'));
  return undeclared(data, result.data, 'data');
}

/** Fields of `input` the parse dropped: Zod objects keep only the keys they declare. */
function undeclared(input: unknown, output: unknown, path: string): string[] {
  if (Array.isArray(input) && Array.isArray(output)) return input.flatMap((item, i) => undeclared(item, output[i], `${path}[${i}]`));
  if (!isObject(input) || !isObject(output)) return [];
  return Object.keys(input).flatMap((key) =>
    key in output ? undeclared(input[key], output[key], `${path}.${key}`) : [`${path}.${key}: answered but not declared`],
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws, naming the route and every problem, when a success answer does not match what its route declares. */
export async function checkAnswer(method: string, path: string, status: number, body: unknown): Promise<void> {
  if (status !== 200 || !isObject(body) || body.success !== true) return;
  const declared = await declaredAnswer(method, path);
  if (!declared?.response || 'contentType' in declared.response) return;
  const problems = answerProblems(declared.response, body.data);
  if (problems.length) {
    throw new Error(`The answer of ${declared.routeId} (${method} ${path}) does not match its declared response:\n  ${problems.join('\n  ')}`);
  }
}
