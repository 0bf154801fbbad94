import * as z from 'zod/mini';
import { catalogue, type ErrorName } from '../errors.js';
import { IDEMPOTENCY_HEADER, KEEP_SECONDS, KEYED_METHODS, KEY_PATTERN, REPLAYED_HEADER } from '../http/idempotency-header.js';
import { MAX_ID_CHARS } from '../http/limits.js';
import type { AnsweredSpec } from '../http/answers.js';
import { type RawAnswer, type Route, schemaOf } from '../http/route.js';
import { CSRF_HEADER, SESSION_COOKIE } from '../auth/session-names.js';
import { moduleOfPath } from '../modules/names.js';
import { describeConditions } from './conditions.js';
import { exampleOf } from './examples.js';
import { TAGS, tagOf } from './tags.js';
import { built } from '#shared/built.js';

/**
 * The OpenAPI 3.1 document, generated from the route table and the very Zod
 * schemas each handler validates with and answers (the factory attaches them
 * to the handler as `spec`). Built on request or at build time, never when a
 * function loads.
 */
type JsonSchema = Record<string, unknown>;

/** Named schemas (records given `.meta({ id })`), shared by every operation that uses them. */
type Named = Record<string, JsonSchema>;

/**
 * A Zod schema as JSON Schema; the schemas it names are moved to
 * `components.schemas`. One name must mean one schema in the whole document.
 */
function toSchema(schema: z.ZodMiniType, io: 'input' | 'output', named: Named): JsonSchema {
  const { $schema: _draft, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  // Each schema leaves here with its conditional rules also in its fields' descriptions, which the /docs page shows.
  const moved = (value: unknown): unknown => describeConditions(JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')));
  for (const [name, definition] of Object.entries(($defs as Named | undefined) ?? {})) {
    const json = moved(definition) as JsonSchema;
    if (named[name] && JSON.stringify(named[name]) !== JSON.stringify(json)) {
      throw new Error(`Two different schemas are named '${name}' (.meta({ id })): give each its own name`);
    }
    named[name] = json;
  }
  return moved(rest) as JsonSchema;
}

const isRaw = (response: AnsweredSpec['response']): response is RawAnswer => Boolean(response && 'contentType' in response);

/** The 200 answer: the envelope around the declared `data`, or the raw content a page or document is. */
function success(spec: AnsweredSpec, named: Named): JsonSchema {
  const { response } = spec;
  if (isRaw(response)) {
    const schema = response.contentType.startsWith('application/json') ? { type: 'object' } : { type: 'string' };
    return { description: response.description, content: { [response.contentType.split(';')[0]!]: { schema } } };
  }
  const data = response ? toSchema(response, 'output', named) : { type: 'object' };
  return {
    description: 'Success: the envelope with the answer in `data`',
    content: {
      'application/json': {
        schema: { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } },
      },
    },
  };
}

/** Which errors a route can answer, following the order of checks of behaviour §3.2. */
function errorsOf(route: Route, spec: AnsweredSpec): ErrorName[] {
  const names: ErrorName[] = [];
  const takesInput = Boolean(spec.body || spec.query || spec.params || spec.actor);
  const module = moduleOfPath(route.path);
  if (spec.body) names.push('PayloadTooLargeError');
  if (route.access !== 'public') names.push('UnauthorizedError', 'ForbiddenError', 'RateLimitedError');
  if (takesInput) names.push('BadRequestError', 'Unprocessable Entity');
  names.push('NotFoundError', 'MethodNotAllowedError', 'InternalServerError');
  if (module && route.access !== 'public') names.push('ModuleDisabledError', 'ModuleEnabledError', 'SettingsError', 'PlatformApiInteractionError');
  if (route.access !== 'public' || route.path === '/readyz') names.push('DatabaseError');
  if (takesKey(route)) names.push('ConflictError');
  return names;
}

/** Every POST, PUT, PATCH and DELETE takes an `Idempotency-Key` (the endpoint factory reads it: behaviour §16). */
const takesKey = (route: Route) => KEYED_METHODS.has(route.method);

/** The `Idempotency-Key` parameter of a mutating operation: one for the routes whose use case keeps the key in what it writes (`RouteSpec.idempotency`), one for the rest. */
const idempotencyParameters = /* @__PURE__ */ built(() => {
  const parameter = (whileRunning: string): JsonSchema => ({
    name: IDEMPOTENCY_HEADER,
    in: 'header',
    required: false,
    description: [
      "The call's identity (behaviour §16), scoped to the credential's guild (or the service token) and this operation.",
      `The first call with a key runs; its final answer (2xx, or 4xx other than 409 and 429) is kept ${KEEP_SECONDS / 3600} hours, and a repeat answers it again with \`${REPLAYED_HEADER}: true\` and does nothing else.`,
      `${whileRunning} the key sent with another body, path, query or X-Acting-User-Id answers 422.`,
      'Any other answer (5xx, 409, 429) is not kept: a repeat runs again, and posts the messages the first attempt posted, not new ones.',
    ].join(' '),
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_PATTERN.source },
    example: 'interaction:1234567890123456789',
  });
  return {
    endpoint: parameter('A repeat while the first runs answers 409 ConflictError with Retry-After;'),
    useCase: parameter(
      'Calls at once with one key store once: each answers the kept answer (replayed) or, while a call holding the key runs, 409 ConflictError with Retry-After;',
    ),
  };
});
const idempotencyParameter = (route: Route): JsonSchema => (route.idempotency === 'use-case' ? idempotencyParameters.useCase : idempotencyParameters.endpoint);

/** The header of an answer replayed for a repeated `Idempotency-Key`. */
const replayedHeader: JsonSchema = {
  description: `Present (\`true\`) when this is the kept answer of an earlier call with the same ${IDEMPOTENCY_HEADER}, sent again; nothing was done this time.`,
  schema: { type: 'string', enum: ['true'] },
};

function parameters(route: Route, spec: AnsweredSpec, named: Named): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const where of ['path', 'query'] as const) {
    const schema = schemaOf(spec, where);
    if (!schema) continue;
    const json = toSchema(schema, 'input', named);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties as Record<string, JsonSchema>) ?? {})) {
      const { description, ...rest } = property;
      // A path names a record by its ID; none is longer than the factory lets through (404 beyond).
      const bounded = where === 'path' && rest.type === 'string' && rest.maxLength === undefined ? { ...rest, maxLength: MAX_ID_CHARS } : rest;
      const isRequired = where === 'path' || required.has(name);
      const parameter: JsonSchema = { name, in: where, required: isRequired, description: description ?? describeParameter(name), schema: bounded };
      // An example request: every required parameter with a value it allows.
      if (isRequired) parameter.example = exampleOf(bounded, named);
      list.push(parameter);
    }
  }
  if (spec.actor) {
    list.push({
      name: 'X-Acting-User-Id',
      in: 'header',
      required: spec.actor === 'required',
      description: 'The member the bot acts for (snowflake ID).',
      schema: { type: 'string', pattern: '^[0-9]{1,20}$' },
    });
  }
  if (takesKey(route)) list.push(idempotencyParameter(route));
  return list;
}

function describeParameter(name: string): string {
  if (name === 'page') return 'Page number, from 1.';
  if (name === 'page_size') return 'Items per page, 1 to 100.';
  return name.endsWith('_id') ? `The ${name.slice(0, -3).replaceAll('_', ' ')} ID.` : `The ${name.replaceAll('_', ' ')}.`;
}

const ACCESS: Record<Route['access'], string> = {
  public: 'Public: no credentials.',
  client: `Needs the service token, an API key of the guild named in the request, or a dashboard session (the ${SESSION_COOKIE} cookie) of a member who may configure that guild; with a session, every change (any method but GET) also carries the session's CSRF token in ${CSRF_HEADER}.`,
  internal: 'Internal: only the service (bot) token may call it; a guild API key gets 403.',
};

/** An error answer: the envelope, with the error names a route can answer with this status. */
const errorResponse = (names: string[]): JsonSchema => ({
  description: names.join(' or '),
  'x-error-names': names,
  ...(names.includes('ConflictError')
    ? {
        headers: {
          'Retry-After': {
            description: `With ConflictError: seconds until the call holding this ${IDEMPOTENCY_HEADER} has answered or its hold has ended.`,
            schema: { type: 'integer', minimum: 1 },
          },
        },
      }
    : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

/** Its name among the document's shared responses: `NotFoundErrorOrSettingsError`. */
const responseKey = (names: string[]) => names.map((name) => name.replace(/\s/g, '')).join('Or');

/**
 * Who may call a route, as alternatives: a bearer credential, or for what a
 * guild key may call a dashboard session (behaviour §19), whose changes also
 * need the CSRF header.
 */
function securityOf(route: Route): JsonSchema[] {
  if (route.access === 'public') return [];
  if (route.access === 'internal') return [{ bearerAuth: [] }];
  return [{ bearerAuth: [] }, route.method === 'GET' ? { sessionCookie: [] } : { sessionCookie: [], csrfToken: [] }];
}

function operationOf(route: Route, spec: AnsweredSpec, shared: { responses: Named; schemas: Named }): JsonSchema {
  const byStatus = new Map<number, string[]>();
  for (const name of errorsOf(route, spec)) byStatus.set(catalogue[name].status, [...(byStatus.get(catalogue[name].status) ?? []), name]);
  const responses: Record<string, JsonSchema> = { '200': success(spec, shared.schemas) };
  if (takesKey(route)) responses['200'] = { ...responses['200'], headers: { [REPLAYED_HEADER]: replayedHeader } };
  // A route answering failures as pages (RouteSpec.errorPage) lists those pages, the router's 405 among them (local mode and the 405 mock answer it as a page too).
  const page = isRaw(spec.response) && spec.errorPage ? spec.response : undefined;
  if (page?.failures) {
    const content = { [page.contentType.split(';')[0]!]: { schema: { type: 'string' } } };
    for (const [status, description] of Object.entries(page.failures)) responses[status] = { description, content };
    byStatus.clear();
  }
  for (const [status, names] of byStatus) {
    shared.responses[responseKey(names)] ??= errorResponse(names);
    responses[String(status)] = { $ref: `#/components/responses/${responseKey(names)}` };
  }
  const operation: JsonSchema = {
    operationId: route.id,
    summary: route.summary,
    description: `${route.summary}. ${ACCESS[route.access]}`,
    tags: [tagOf(route)],
    'x-access': route.access,
    security: securityOf(route),
    parameters: parameters(route, spec, shared.schemas),
    responses,
  };
  if (spec.body) {
    const schema = toSchema(spec.body, 'input', shared.schemas);
    operation.requestBody = { required: true, content: { 'application/json': { schema, example: exampleOf(schema, shared.schemas) } } };
  }
  return operation;
}

export function openApiDocument(routes: readonly Route[], specs: ReadonlyMap<string, AnsweredSpec>): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const shared = { responses: {} as Named, schemas: {} as Named };
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationOf(route, specs.get(route.id) ?? {}, shared);
  }
  const sorted = (named: Named) => Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));
  const used = new Set(routes.map(tagOf));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Guild Module Management Service',
      version: '1',
      summary: 'Per-guild modules of a chat-community bot',
      description: [
        'Per-guild module management for a chat-community bot: reaction roles, polls, socials, server statistics, welcoming, invite tracking, giveaways, verification and tags.',
        'Every path is served under /v1 and also without the prefix. Every answer is JSON in the envelope `{"success": true, "data": {...}}` or `{"success": false, "data": {}, "error": {"code", "name", "message"}}`.',
        'Snowflake IDs are strings of 1 to 20 digits: send them as strings (the service also accepts exact JSON integers, but a JavaScript number loses digits above 2^53). A 400 names a missing field, a wrong JSON type or an invalid ID; a 422 a rule; both list every problem found.',
      ].join('\n\n'),
      contact: { name: 'The operators of this deployment' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/v1', description: 'This service (every path is also served without /v1)' }],
    security: [{ bearerAuth: [] }],
    tags: TAGS.filter((tag) => used.has(tag.name)),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The service token, or an API key of the guild (gmk....).' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            "A dashboard session, set by GET /dashboard/callback after the platform's sign-in (HttpOnly, at most 12 hours): a guild key's reach, in the guilds where the member has Manage Guild or Administrator and the bot is present.",
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER,
          description: "With a session, on every change (any method but GET): the session's CSRF token, which the dashboard's guild page carries.",
        },
      },
      responses: sorted(shared.responses),
      schemas: {
        ...sorted(shared.schemas),
        ErrorEnvelope: {
          type: 'object',
          description: 'Every error answer.',
          required: ['success', 'data', 'error'],
          properties: {
            success: { const: false },
            data: { type: 'object', maxProperties: 0 },
            error: {
              type: 'object',
              required: ['code', 'name', 'message'],
              properties: {
                code: { type: 'integer', description: 'The HTTP status (but on the reaction-role check quirk, contract 3.3)' },
                name: { type: 'string', enum: Object.keys(catalogue) },
                message: { type: 'string', description: '"<Title>! <reason>": the reason names each problem, its field, what was wrong and what is allowed' },
              },
            },
          },
        },
      },
    },
  };
}
