/**
 * A service call as data: which operation, for which member, with which
 * body. The event table (events.ts) answers these; service.ts sends them
 * through the typed client. Typed against the service's own OpenAPI types,
 * so a body the service would refuse with 400 does not compile.
 */
import type { paths } from '../typescript/index.js';

export type Method = 'post' | 'put' | 'delete';

/** The paths that take `method`. */
export type PathOf<M extends Method> = { [P in keyof paths]: NonNullable<paths[P][M]> extends never ? never : P }[keyof paths];

type Operation<M extends Method, P extends PathOf<M>> = NonNullable<paths[P][M]>;

/** The JSON body an operation takes. */
export type BodyOf<M extends Method, P extends PathOf<M>> = Operation<M, P> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** The path parameters an operation takes (`{}` when none). */
type PathParamsOf<M extends Method, P extends PathOf<M>> = Operation<M, P> extends { parameters: { path: infer T } } ? T : Record<string, never>;

/** One call the bot makes to the service. */
export interface Call {
  /** `POST /modules/polls/entry/vote`: the method and the path as the service's route table names it. */
  operation: string;
  method: Method;
  path: string;
  /** Path parameters (`{entry_id}`), filled in when sent. */
  pathParams: Record<string, string>;
  /** The member the bot acts for (`X-Acting-User-Id`), when the operation takes one. */
  actor: string | null;
  body: Record<string, unknown>;
  /** The `Idempotency-Key` (keys.ts): the event's identity and the operation; null for a call no event identifies. */
  idempotencyKey: string | null;
}

export const operationName = (method: Method, path: string) => `${method.toUpperCase()} ${path}`;

/** Builds a call; the compiler checks the body and path parameters against the service's schema. */
export function call<M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  body: BodyOf<M, P>,
  extra: { actor?: string; pathParams?: PathParamsOf<M, P> } = {},
): Call {
  return {
    operation: operationName(method, path),
    method,
    path,
    pathParams: (extra.pathParams ?? {}) as Record<string, string>,
    actor: extra.actor ?? null,
    body: body as Record<string, unknown>,
    idempotencyKey: null,
  };
}
