import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { type Caller, callerFromContext } from '../auth/caller.js';
import { badRequest, forbidden } from '../errors.js';
import { parseSnowflake } from '../ids.js';
import { type ModuleName, moduleOfPath } from '../modules/names.js';
import { withCallNonces } from '../platform/nonce.js';
import { RawBody, successResponse } from './envelope.js';
import { parseJsonLossless } from './json.js';
import { bodyTextOf, headerOf } from './request.js';
import { checkStoreLimits } from './limits.js';
import { bodyLimit, errorEnvelope } from './middleware.js';
import { type KeyedCall, fingerprintOf, idempotencyKeyOf, keepAnswers, nonceSeedOf, scopeOf, takeKey } from './idempotency.js';
import { type DeclaredField, declaredFields, namedObjects } from './owned.js';
import { noteParties, withRequestLog } from './request-log.js';
import type { Answers } from './answers.js';
import { type ActorMode, type InputPart, type RawAnswer, type RouteSpec, schemaOf } from './route.js';
import { isShapeIssue, problemOf, validationError } from './validation.js';

type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** What a use case receives: validated input, who calls, and for whom. */
export interface EndpointInput<Q, B, P, A extends ActorMode | undefined = undefined> {
  query: Out<Q>;
  body: Out<B>;
  path: Out<P>;
  /** null only on public routes (the authorizer guards every other one). */
  caller: Caller | null;
  /** The member the bot acts for (X-Acting-User-Id): a string when the endpoint requires it, otherwise the header's value or null. */
  actor: A extends 'required' ? string : string | null;
  /** `guild_id` of the query or body, when the endpoint takes one. */
  guildId: string | null;
  /** The module whose path this is (`/modules/<module>/...`), or null. */
  module: ModuleName | null;
  /** The route's path template, e.g. `/modules/polls/entry/{poll_id}`. */
  route: string;
  requestId: string;
  /** A request header by its lower-case name (the dashboard's pages read their cookie). */
  header: (name: string) => string | undefined;
  /** The call's `Idempotency-Key`, on a route whose use case keeps it (`RouteSpec.idempotency`); null otherwise, or without one. */
  key: KeyedCall | null;
}

/** A route's Lambda handler (its schemas are its row's: shared/http/route.ts). */
export type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const ACTOR_HEADER = 'x-acting-user-id';

function readBody(event: APIGatewayProxyEvent): unknown {
  const text = bodyTextOf(event);
  if (text === null || text === undefined || text.trim() === '') {
    throw badRequest('The request body must be a JSON object; it was empty.');
  }
  let value: unknown;
  try {
    value = parseJsonLossless(text);
  } catch {
    throw badRequest('The request body is not valid JSON; send a JSON object.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`The request body must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.`);
  }
  return value;
}

/** The fields of an endpoint's schemas that name platform objects, read once when it is built. */
export function ownedFieldsOf(spec: Pick<RouteSpec, 'params' | 'query' | 'body'>): DeclaredField[] {
  return (['path', 'query', 'body'] as const).flatMap((where) => {
    const schema = schemaOf(spec, where);
    return schema ? declaredFields(schema, where) : [];
  });
}

type Part = { where: InputPart; schema: z.ZodMiniType; raw: unknown };

/** The schema a row declares under `key`, or undefined (the input part is then undefined too). */
type Declared<R, K extends string> = R extends { [k in K]: infer S extends z.ZodMiniType } ? S : undefined;
type ActorOf<R> = R extends { actor: infer A extends ActorMode } ? A : undefined;

/** What the use case of a route row receives: typed by the row's own schemas (`params` parsed into `path`). */
export type RowInput<R extends RouteSpec> = EndpointInput<Declared<R, 'query'>, Declared<R, 'body'>, Declared<R, 'params'>, ActorOf<R>>;

/**
 * What the use case of a route row answers: the `data` its answer schema
 * describes (what the schema accepts), found by the row's id among the
 * module's answers (shared/http/answers.ts); a raw body (`RawBody`) for a
 * route answering something other than the envelope. A use case answering
 * fields its row's answer does not declare, or missing some, does not compile.
 */
export type RowAnswer<R extends RouteSpec> =
  | (R extends { id: infer I extends keyof Answers }
      ? Answers[I] extends infer S
        ? S extends z.ZodMiniType
          ? z.input<S>
          : S extends RawAnswer
            ? RawBody
            : object
        : object
      : object)
  // A use case keeping its key answers a repeat with the first call's answer, as it was sent.
  | (R extends { idempotency: 'use-case' } ? RawBody : never);

/**
 * Turns a route row (shared/http/route.ts) and its use case into the
 * route's Lambda handler: `endpoint(routes.vote, async ({ body, actor }) => ...)`.
 * The row names the schemas and middlewares; the handler file names only
 * the use case. The factory owns, in this order: 413, the caller (401/403
 * for internal routes are the authorizer's), body/query/path/header shape
 * (400), a path ID no record can have (404), the guild scope of a guild key
 * (403), rules (422), IDs and query values past the store's limits (404,
 * 422), an `Idempotency-Key`'s repeat (the kept answer, 409 or 422:
 * shared/http/idempotency.ts, behaviour §16; a row with `idempotency:
 * 'use-case'` hands the key to its use case instead), the platform objects the
 * request names being the guild's (422, behaviour §13), then the use case
 * (with message nonces of the key) and the envelope.
 */
export function endpoint<R extends RouteSpec & { id: string }>(row: R, run: (input: RowInput<R>) => Promise<RowAnswer<R>> | RowAnswer<R>): Handler {
  return build(row.id, row, run as (input: EndpointInput<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType, ActorMode>) => Promise<object> | object);
}

function build<Q extends z.ZodMiniType | undefined, B extends z.ZodMiniType | undefined, P extends z.ZodMiniType | undefined, A extends ActorMode | undefined>(
  operation: string,
  spec: RouteSpec,
  run: (input: EndpointInput<Q, B, P, A>) => Promise<object> | object,
): Handler {
  const declared = ownedFieldsOf(spec);
  if (declared.length > 0 !== (spec.owned !== undefined)) {
    const fields = declared.map((f) => `${f.where}.${f.path.join('.')}`).join(', ');
    throw new Error(
      declared.length
        ? `An endpoint whose fields name platform objects (${fields}) must name the ownership check: owned: checkOwned (shared/platform/ownership.ts).`
        : 'An endpoint names the ownership check but no field of its schemas names a platform object (owned in shared/http/owned.ts).',
    );
  }

  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const caller = callerFromContext(event.requestContext?.authorizer);

    const parts: Part[] = [];
    if (spec.params) parts.push({ where: 'path', schema: spec.params, raw: event.pathParameters ?? {} });
    if (spec.query) parts.push({ where: 'query', schema: spec.query, raw: event.queryStringParameters ?? {} });
    if (spec.body) parts.push({ where: 'body', schema: spec.body, raw: readBody(event) });

    // Shape of every part and of the acting-member header, before any rule.
    const results = parts.map((part) => ({ part, result: part.schema.safeParse(part.raw, { error: problemOf, reportInput: true }) }));
    const failures = results.flatMap(({ part, result }) => (result.success ? [] : [{ where: part.where, issues: result.error.issues }]));
    if (failures.some(({ issues }) => issues.some(isShapeIssue))) throw validationError(failures);
    // Shape is valid, so guild_id (when present) parses; the request's log line names it and the acting member.
    const rawGuild = parts.map((p) => (p.raw as Record<string, unknown>)?.guild_id).find((v) => v !== undefined);
    const guildId = rawGuild === undefined ? null : parseSnowflake(rawGuild);
    // A session's acting member is the member signed in, never a header the browser sets.
    const actorHeader = caller?.kind === 'session' ? caller.userId : headerOf(event, ACTOR_HEADER);
    const actor = actorHeader === undefined || actorHeader === '' ? null : parseSnowflake(actorHeader);
    noteParties(context, { guildId, actor });
    if (actorHeader && actor === null) {
      throw badRequest(`Header 'X-Acting-User-Id' must be the member's snowflake ID (1 to 20 decimal digits), not '${actorHeader.slice(0, 40)}'.`);
    }
    if (spec.actor === 'required' && actor === null) {
      throw badRequest("Header 'X-Acting-User-Id' is required: name the member the bot acts for by their snowflake ID.");
    }
    const idempotencyKey = idempotencyKeyOf(event);
    // A path naming a record no one can have: 404 before anything else reads it.
    checkStoreLimits(parts.filter((part) => part.where === 'path'));

    // The guild scope of a guild key.
    if (caller?.kind === 'guild' && guildId !== null && guildId !== caller.guildId) {
      throw forbidden(`This API key belongs to guild ${caller.guildId}; it cannot act on guild ${guildId}.`);
    }
    // A dashboard session: only guilds the member may configure and the bot is in (behaviour §19).
    if (caller?.kind === 'session' && (guildId === null || !caller.guildIds.includes(guildId))) {
      throw forbidden(`Not from the dashboard in guild ${guildId}: needs Manage Server or Administrator and the bot there.`);
    }

    if (failures.length) throw validationError(failures);
    // IDs no record can have (404) and query values no key can hold (422), before any store call.
    checkStoreLimits(parts.filter((part) => part.where !== 'path'));
    const value = (where: Part['where']) => {
      const found = results.find((r) => r.part.where === where);
      return found?.result.success ? found.result.data : undefined;
    };
    // Every check a repeat would fail alike has run: now a repeat of a keyed call is told apart from a first call.
    const keyId = idempotencyKey === null ? null : { scope: scopeOf(caller), operation, key: idempotencyKey };
    const fingerprint = keyId ? fingerprintOf(event, actor) : '';
    // A row whose use case keeps its key (its items written once under it) is handed the key instead.
    const key: KeyedCall | null =
      keyId && spec.idempotency === 'use-case' ? { id: keyId, fingerprint, take: () => takeKey(context, keyId, fingerprint) } : null;
    if (keyId && !key) {
      const replay = await takeKey(context, keyId, fingerprint);
      if (replay) return replay;
    }
    // Platform objects the request names are the guild's (422 otherwise), before anything is posted or stored.
    if (spec.owned) {
      const named = namedObjects(declared, Object.fromEntries(parts.map((part) => [part.where, part.raw])));
      if (named.length && guildId === null) throw new Error('A request naming platform objects must name its guild (guild_id)');
      if (named.length) await spec.owned(guildId!, named);
    }

    const input = {
      query: value('query') as Out<Q>,
      body: value('body') as Out<B>,
      path: value('path') as Out<P>,
      caller,
      // Checked above: a required header is present.
      actor: actor as EndpointInput<Q, B, P, A>['actor'],
      guildId,
      module: moduleOfPath(event.resource ?? event.path ?? ''),
      route: event.resource ?? event.path ?? '',
      requestId: context.awsRequestId,
      header: (name: string) => headerOf(event, name),
      key,
    };
    // A keyed call's messages carry nonces of its key, so a repeat after a failure posts none twice.
    const data = keyId ? await withCallNonces(nonceSeedOf(keyId), async () => run(input)) : await run(input);
    return data instanceof RawBody ? data.response() : successResponse(data);
  };

  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>({ timeoutEarlyInMillis: 0 });
  // onError runs in reverse order of use: the envelope is built first, then the member is told.
  if (spec.answerFailures) chain.use(spec.answerFailures);
  return withRequestLog(keepAnswers(chain.use(errorEnvelope(spec.errorPage)).use(bodyLimit()).handler(core)));
}
