/**
 * Example requests for the OpenAPI document, worked out from the same JSON
 * Schemas the document publishes: every required field (and every field a
 * conditional requirement asks for) with a value its schema allows, a
 * schema's own `examples` first. Built with the document, never when a
 * function loads.
 */
type JsonSchema = Record<string, unknown>;

/** A snowflake in examples: realistic, above 2^53, as a string. */
const EXAMPLE_ID = '1234567890123456789';

const schemaList = (value: unknown): JsonSchema[] => (Array.isArray(value) ? (value as JsonSchema[]) : []);
const typeOf = (schema: JsonSchema): string | undefined => {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]).find((t) => t !== 'null') : (type as string | undefined);
};

/** Follows `#/components/schemas/<name>` references into the document's named schemas. */
function resolved(schema: JsonSchema, named: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) return resolved(named[ref.slice('#/components/schemas/'.length)] ?? {}, named);
  return schema;
}

/** Whether an `if` of a conditional requirement holds for the example built so far (only `const` conditions are written). */
function holds(condition: JsonSchema, value: Record<string, unknown>): boolean {
  const properties = (condition.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).every(([name, rule]) => !('const' in rule) || value[name] === rule.const);
}

function objectExample(schema: JsonSchema, named: Record<string, JsonSchema>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const value: Record<string, unknown> = {};
  for (const name of (schema.required as string[] | undefined) ?? []) value[name] = exampleOf(properties[name] ?? {}, named);
  for (const part of schemaList(schema.allOf)) {
    const branch = 'if' in part ? (holds(part.if as JsonSchema, value) ? part.then : part.else) : part;
    if (!branch || typeof branch !== 'object') continue;
    const wanted = branch as JsonSchema;
    const extra = (wanted.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (wanted.required as string[] | undefined) ?? []) {
      if (value[name] === undefined || value[name] === null) value[name] = exampleOf({ ...properties[name], ...extra[name] }, named);
    }
    // A field the branch pins (to null, to some values) that the example already holds.
    for (const [name, rule] of Object.entries(extra)) {
      if (name in value && (rule.type === 'null' || Array.isArray(rule.enum))) value[name] = exampleOf({ ...properties[name], ...rule }, named);
    }
  }
  return value;
}

/** One value the schema allows. */
export function exampleOf(input: JsonSchema, named: Record<string, JsonSchema>): unknown {
  const schema = resolved(input, named);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.type === 'null') return null;
  const options = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (options.length) return exampleOf(options.find((o) => resolved(o, named).type !== 'null') ?? options[0]!, named);
  switch (typeOf(schema)) {
    case 'object':
      return objectExample(schema, named);
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 0));
      const item = exampleOf((schema.items as JsonSchema | undefined) ?? {}, named);
      return Array.from({ length: count }, (_, i) => (typeof item === 'string' && /^[0-9]+$/.test(item) ? `${item.slice(0, -1)}${i}` : item));
    }
    case 'integer':
    case 'number':
      return Math.max(1, Number(schema.minimum ?? 1));
    case 'boolean':
      return false;
    case 'string':
      if (typeof schema.pattern === 'string' && schema.pattern.includes('[0-9]{1,20}')) return EXAMPLE_ID;
      if (schema.format === 'date-time') return '2026-11-21T12:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.com/feed';
      return 'text'.padEnd(Math.max(4, Number(schema.minLength ?? 0)), 'x').slice(0, Math.max(4, Number(schema.minLength ?? 0)));
    default:
      return 'text';
  }
}
