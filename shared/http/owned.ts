import * as z from 'zod/mini';
import { parseSnowflake } from '../ids.js';

/**
 * Platform objects a request names (behaviour §13): which fields of a route's
 * schemas name a channel, category, role, message or invite code that must
 * be the request's guild's. The schemas declare it (`owned` in
 * `schemas.ts`); the endpoint factory reads the declarations from the
 * schemas once, when the endpoint is built, and hands the values of a valid
 * request to the checker the endpoint names (shared/platform/ownership.ts).
 * This file knows no platform, so every bundle may carry it.
 */

export type OwnedKind = 'channel' | 'category' | 'role' | 'message' | 'invite';

export interface OwnedDeclaration {
  kind: OwnedKind;
  /** A message: the field of the same object that names its channel. */
  channelField?: string;
  /** An invite the platform does not know answers 404, not 422 (behaviour §12: deleting an unknown invite code). */
  unknownIsNotFound?: boolean;
}

/** Schema -> what it names. A registry of its own, so the OpenAPI document is not touched. */
export const ownedRegistry = /* @__PURE__ */ /* @__PURE__ */ z.registry<OwnedDeclaration>();

/** A copy of `schema` declared to name a platform object of the request's guild. */
export function owned<T extends z.ZodMiniType>(schema: T, declaration: OwnedDeclaration): T {
  const copy = schema.clone();
  ownedRegistry.add(copy, declaration);
  return copy;
}

export type Where = 'path' | 'query' | 'body';
/** A field's place in its part: names, and `*` for every item of a list. */
export type FieldPath = (string | '*')[];

/** A declared field of a route. */
export interface DeclaredField {
  where: Where;
  path: FieldPath;
  declaration: OwnedDeclaration;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  left?: z.ZodMiniType;
  right?: z.ZodMiniType;
};

/** Wrappers whose value is their inner schema's. */
const WRAPPERS = /* @__PURE__ */ new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** Every declared field of a schema, at any depth of objects and lists. */
export function declaredFields(schema: z.ZodMiniType, where: Where, path: FieldPath = [], seen = new Set<string>()): DeclaredField[] {
  const declaration = ownedRegistry.get(schema);
  if (declaration) {
    const key = path.join('.');
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ where, path, declaration }];
  }
  const def = schema._zod.def as Def;
  const walk = (inner: z.ZodMiniType | undefined, at: FieldPath = path) => (inner ? declaredFields(inner, where, at, seen) : []);
  if (def.type === 'object') return Object.entries(def.shape ?? {}).flatMap(([name, field]) => walk(field, [...path, name]));
  if (def.type === 'array') return walk(def.element, [...path, '*']);
  if (WRAPPERS.has(def.type)) return walk(def.innerType);
  if (def.type === 'pipe') return [...walk(def.in), ...walk(def.out)];
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => walk(option));
  if (def.type === 'intersection') return [...walk(def.left), ...walk(def.right)];
  return [];
}

/** One platform object a request names. */
export interface NamedObject {
  /** As a client writes it: `body.entries[0].role_id`. */
  field: string;
  id: string;
  declaration: OwnedDeclaration;
  /** A message: the channel its declaration's `channelField` names. */
  channelId?: string;
}

/** The ID a value names: a snowflake (string or JSON integer), or an invite code. Null, `""` (a cleared setting) and `"create"` name none. */
const nameOf = (value: unknown, kind: OwnedKind): string | null =>
  kind === 'invite' ? (typeof value === 'string' && value !== '' ? value : null) : parseSnowflake(value);

/**
 * The objects a request that passed validation names in its declared
 * fields, read from the request as sent (a schema may turn a list of roles
 * into something else, such as the text a setting stores).
 */
export function namedObjects(fields: DeclaredField[], parts: Partial<Record<Where, unknown>>): NamedObject[] {
  const found: NamedObject[] = [];
  const visit = (field: DeclaredField, node: unknown, rest: FieldPath, name: string, parent: unknown) => {
    if (!rest.length) {
      const id = nameOf(node, field.declaration.kind);
      if (id === null) return;
      const channel = field.declaration.channelField ? parseSnowflake((parent as Record<string, unknown>)[field.declaration.channelField]) : null;
      found.push({ field: name, id, declaration: field.declaration, ...(channel !== null ? { channelId: channel } : {}) });
      return;
    }
    const [step, ...next] = rest as [string, ...FieldPath];
    if (step === '*') {
      if (Array.isArray(node)) node.forEach((item, i) => visit(field, item, next, `${name}[${i}]`, node));
    } else if (node && typeof node === 'object') {
      visit(field, (node as Record<string, unknown>)[step], next, `${name}.${step}`, node);
    }
  };
  for (const field of fields) visit(field, parts[field.where], field.path, field.where, undefined);
  return found;
}
