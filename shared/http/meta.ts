import * as z from 'zod/mini';

/**
 * Documentation attached to a schema for the OpenAPI document: a copy of the
 * schema carrying `data` in Zod's global registry, as classic Zod's `.meta()`
 * does (the copy keeps its original as parent, so what that one says is kept
 * where this says nothing). Nothing reads it when a function runs.
 */
export function meta<T extends z.ZodMiniType>(schema: T, data: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, data);
  return copy;
}

/** A copy of the schema whose documentation is `description`. */
export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  return meta(schema, { description });
}
