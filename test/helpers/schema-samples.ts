import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import type { Handler } from '#shared/http/endpoint.js';
import type { Route, RouteSpec } from '#shared/http/route.js';
import { loadSpec } from '#shared/http/load-handler.js';

/**
 * Requests made from a route's own schemas (as the OpenAPI document states
 * them), for tests generated over every route: a sample that passes the
 * shape checks, the fields with allowed values, and a way to call the
 * handler directly with an API Gateway event.
 */
export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
};

export const inputSchema = (schema: z.ZodMiniType): JsonSchema => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** A value of the schema's type that meets its bounds (not its cross-field rules). */
export function sample(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.anyOf) return sample(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!);
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sample(schema.properties?.[name] ?? {})]));
    case 'array':
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 0)) }, (_, i) => distinct(sample(schema.items ?? {}), i));
    case 'integer':
    case 'number':
      return Math.max(1, Number(schema.minimum ?? 1));
    case 'boolean':
      return false;
    case 'string':
      if (typeof schema.pattern === 'string' && schema.pattern.includes('[0-9]{1,20}')) return '123456789012345678';
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    default:
      return 'x';
  }
}

/** Array items made distinct where the rules want them so (role IDs). */
const distinct = (value: unknown, i: number) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? `${value.slice(0, -1)}${i}` : value);

export interface EnumField {
  /** Path from the part's root: ['answers', 0, 'emoji_name']. */
  path: (string | number)[];
  values: unknown[];
  nullable: boolean;
  required: boolean;
}

/** The allowed values of a schema, when it lists them (an enum, a const, a nullable one). */
function allowedValues(schema: JsonSchema): { values: unknown[]; nullable: boolean } | null {
  if (schema.enum) return { values: schema.enum.filter((v) => v !== null), nullable: schema.enum.includes(null) };
  if (schema.const !== undefined) return { values: [schema.const], nullable: false };
  if (schema.anyOf) {
    const parts = schema.anyOf.map((s) => (s.type === 'null' ? { values: [], nullable: true } : allowedValues(s)));
    if (parts.some((p) => p === null)) return null;
    return { values: parts.flatMap((p) => p!.values), nullable: parts.some((p) => p!.nullable) };
  }
  return null;
}

/** Every field with allowed values, at any depth of objects and arrays. */
export function enumFields(schema: JsonSchema, path: (string | number)[] = [], required = true): EnumField[] {
  const allowed = path.length ? allowedValues(schema) : null;
  if (allowed?.values.length) {
    const nullable = allowed.nullable || (Array.isArray(schema.type) && schema.type.includes('null'));
    return [{ path, values: allowed.values, nullable, required }];
  }
  const type = typeOf(schema);
  if (type === 'object') {
    const requiredNames = new Set(schema.required ?? []);
    return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => enumFields(property, [...path, name], requiredNames.has(name)));
  }
  if (type === 'array' && schema.items) return enumFields(schema.items, [...path, 0], true);
  return [];
}

/** Where a field is in a part, and whether its number is an integer. */
export interface NumberField {
  /** Path from the part's root: ['activities', 0, 'activity_type']. */
  path: (string | number)[];
  integer: boolean;
}

/** Every field taking a JSON number (an integer or not) without listed values, at any depth of objects, arrays and nullable forms. */
export function numberFields(schema: JsonSchema, path: (string | number)[] = []): NumberField[] {
  if (path.length && allowedValues(schema)?.values.length) return [];
  const types = [...(Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []), ...(schema.anyOf ?? []).map(typeOf)];
  if (path.length && types.includes('number')) return [{ path, integer: false }];
  if (path.length && types.includes('integer')) return [{ path, integer: true }];
  const type = typeOf(schema);
  if (type === 'object') return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => numberFields(property, [...path, name]));
  if (type === 'array' && schema.items) return numberFields(schema.items, [...path, 0]);
  return [];
}

/** The value at `path` of `root`, or undefined. */
export function valueAt(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node === null || typeof node !== 'object' ? undefined : (node as Record<string | number, unknown>)[key]), root);
}

/** A copy of `root` with the value at `path` set (or removed when `value` is undefined), creating what is missing. */
export function withValue(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const [i, key] of path.slice(0, -1).entries()) {
    node[key] ??= typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** JSON text in which bigints are written as the integers they are. */
export const jsonText = (value: unknown) => JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `#big#${v}` : v)).replace(/"#big#(\d+)"/g, '$1');

/** Samples of every part of a route's request. */
export function sampleRequest(spec: RouteSpec): { path: Record<string, string>; query: Record<string, string>; body: unknown } {
  const strings = (schema?: z.ZodMiniType) =>
    schema ? Object.fromEntries(Object.entries(sample(inputSchema(schema)) as Record<string, unknown>).map(([k, v]) => [k, String(v)])) : {};
  return { path: strings(spec.params), query: strings(spec.query), body: spec.body ? sample(inputSchema(spec.body)) : undefined };
}

/** Calls a route's handler as API Gateway would, with the service token's verdict and an acting member. */
export function invoke(
  route: Route,
  handler: Handler,
  request: { path?: Record<string, string>; query?: Record<string, string>; body?: string },
): Promise<APIGatewayProxyResult> {
  const event = {
    httpMethod: route.method,
    resource: route.path,
    path: route.path,
    headers: { 'content-type': 'application/json', 'x-acting-user-id': '223456789012345678' },
    pathParameters: request.path ?? null,
    queryStringParameters: request.query ?? null,
    body: request.body ?? null,
    isBase64Encoded: false,
    requestContext: { authorizer: { caller: 'service' } },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, { awsRequestId: 'schema-samples' } as Context);
}

/** One field of one route's body or query, for tests generated over every route. */
export interface FieldCase<F> {
  name: string;
  route: Route;
  where: 'body' | 'query';
  field: F;
}

/** Every field `fieldsOf` finds in the body and query schemas of `routes`, named `<route id> <where> <path>`. */
export async function fieldCases<F extends { path: (string | number)[] }>(
  routes: readonly Route[],
  fieldsOf: (schema: JsonSchema) => F[],
): Promise<FieldCase<F>[]> {
  const cases: FieldCase<F>[] = [];
  for (const route of routes) {
    const spec = await loadSpec(route);
    for (const where of ['body', 'query'] as const) {
      const schema = spec[where];
      if (!schema) continue;
      for (const field of fieldsOf(inputSchema(schema))) cases.push({ name: `${route.id} ${where} ${field.path.join('.')}`, route, where, field });
    }
  }
  return cases;
}
