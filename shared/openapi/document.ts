import { z } from 'zod';
import { catalogue, type ErrorName } from '../errors.js';
import type { EndpointSpec } from '../http/endpoint.js';
import type { Route } from '../http/route.js';
import { moduleOfPath } from '../modules/names.js';

/**
 * The OpenAPI 3.1 document, generated from the route table and the very Zod
 * schemas each handler validates with (the factory attaches them to the
 * handler as `spec`).
 */
type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const envelope = (data: JsonSchema = { type: 'object' }): JsonSchema => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { const: true }, data },
});

/** Which errors a route can answer, following the order of checks of contract 3.2. */
function errorsOf(route: Route, spec: EndpointSpec): ErrorName[] {
  const names: ErrorName[] = [];
  const takesInput = Boolean(spec.body || spec.query || spec.path || spec.actor);
  const module = moduleOfPath(route.path);
  if (spec.body) names.push('PayloadTooLargeError');
  if (route.access !== 'public') names.push('UnauthorizedError', 'ForbiddenError', 'RateLimitedError');
  if (takesInput) names.push('BadRequestError', 'Unprocessable Entity');
  names.push('NotFoundError', 'MethodNotAllowedError', 'InternalServerError');
  if (module && route.access !== 'public') names.push('ModuleDisabledError', 'ModuleEnabledError', 'SettingsError', 'PlatformApiInteractionError');
  if (route.access !== 'public' || route.path === '/readyz') names.push('DatabaseError');
  return names;
}

function parameters(spec: EndpointSpec): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const where of ['path', 'query'] as const) {
    const schema = spec[where];
    if (!schema) continue;
    const json = toSchema(schema);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties as Record<string, JsonSchema>) ?? {})) {
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: property });
    }
  }
  if (spec.actor) {
    list.push({
      name: 'X-Acting-User-Id',
      in: 'header',
      required: spec.actor === 'required',
      description: 'The member the bot acts for (snowflake).',
      schema: { type: 'string', pattern: '^[0-9]{1,20}$' },
    });
  }
  return list;
}

export function openApiDocument(routes: readonly Route[], specs: ReadonlyMap<string, EndpointSpec>): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const spec = specs.get(route.id) ?? {};
    const errors = errorsOf(route, spec);
    const responses: Record<string, JsonSchema> = { '200': { description: 'Success', content: { 'application/json': { schema: envelope() } } } };
    for (const name of errors) {
      const { status } = catalogue[name];
      const existing = responses[String(status)];
      const names = [...((existing?.['x-error-names'] as string[]) ?? []), name];
      responses[String(status)] = {
        description: names.join(' or '),
        'x-error-names': names,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      };
    }
    const operation: JsonSchema = {
      operationId: route.id,
      summary: route.summary,
      tags: [moduleOfPath(route.path) ?? route.id.split('.')[0]],
      'x-access': route.access,
      security: route.access === 'public' ? [] : [{ bearerAuth: [] }],
      parameters: parameters(spec),
      responses,
    };
    if (route.access === 'internal') operation.description = 'Internal: only the service (bot) token may call it.';
    if (spec.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(spec.body) } } };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Guild Module Management Service',
      version: '1',
      description:
        'Per-guild module management for a chat-community bot. Every path is also served under /v1. Snowflake IDs are accepted as strings or JSON integers and always answered as strings.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The service token, or an API key of the guild (gmk....).' },
      },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'data', 'error'],
          properties: {
            success: { const: false },
            data: { type: 'object', maxProperties: 0 },
            error: {
              type: 'object',
              required: ['code', 'name', 'message'],
              properties: {
                code: { type: 'integer' },
                name: { enum: Object.keys(catalogue) },
                message: { type: 'string', description: '"<Title>! <reason>"' },
              },
            },
          },
        },
      },
    },
  };
}
