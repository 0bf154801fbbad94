/**
 * The conditional requirements of the OpenAPI document (`allOf` entries of
 * `if`/`then`/`else`) are also in the descriptions of the fields they touch,
 * which is what the /docs page shows: every rule in the document, and the
 * service poll's by name.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { describeConditions } from '#shared/openapi/conditions.js';
import { loadOpenApiDocument } from '#shared/openapi/load.js';

type JsonSchema = Record<string, any>;
const doc = (await loadOpenApiDocument(routes)) as JsonSchema;

const bodyOf = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema as JsonSchema;

/** Every object schema in the document holding conditional rules, with where it is. */
function withRules(value: unknown, where = '#', found: [string, JsonSchema][] = []): [string, JsonSchema][] {
  if (Array.isArray(value)) value.forEach((child, i) => withRules(child, `${where}/${i}`, found));
  else if (value && typeof value === 'object') {
    const schema = value as JsonSchema;
    if (Array.isArray(schema.allOf) && schema.allOf.some((part: JsonSchema) => 'if' in part)) found.push([where, schema]);
    for (const [key, child] of Object.entries(schema)) withRules(child, `${where}/${key}`, found);
  }
  return found;
}

describe('the conditional requirements, as the docs page shows them', () => {
  it("say on a service poll's fields that poll_type 2 requires them", () => {
    for (const [path, method] of [
      ['/modules/polls/entries', 'post'],
      ['/modules/polls/handler/create', 'post'],
    ] as const) {
      const { properties } = bodyOf(path, method);
      expect(properties.is_anonymous.description).toContain('When `poll_type` is 2: required (not null).');
      expect(properties.max_votes_per_answer.description).toMatch(/When `poll_type` is 2: required \(not null\), an integer from 1 to [0-9]+\./);
      expect(properties.poll_answer_type.description).toContain('When `poll_type` is 2: required (not null), one of 1, 2, 3.');
      expect(properties.question.description ?? '').not.toContain('When `poll_type`');
    }
  });

  it('say so on every field of every rule in the document: required, or what it must be, and when', () => {
    const found = withRules(doc);
    // The polls' two creates, the panel's create and edit, the reaction check.
    expect(found.length).toBeGreaterThanOrEqual(5);
    let checked = 0;
    for (const [where, schema] of found) {
      for (const rule of schema.allOf.filter((part: JsonSchema) => 'if' in part)) {
        const [[field, condition]] = Object.entries(rule.if.properties) as [[string, JsonSchema]];
        const value = JSON.stringify(condition.const);
        for (const [branch, when] of [
          [rule.then, new RegExp(`When \`${field}\` is ${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `)],
          [rule.else, new RegExp(`When \`${field}\` is (?!${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:)[^:]+: `)],
        ] as [JsonSchema | undefined, RegExp][]) {
          if (!branch) continue;
          for (const name of branch.required ?? []) {
            expect(schema.properties[name].description, `${where}: ${name}`).toMatch(new RegExp(`${when.source}required`));
            checked++;
          }
          for (const [name, demand] of Object.entries((branch.properties ?? {}) as Record<string, JsonSchema>)) {
            if ('const' in demand)
              expect(schema.properties[name].description, `${where}: ${name}`).toMatch(new RegExp(`${when.source}.*must be ${JSON.stringify(demand.const)}`));
            else expect(schema.properties[name].description, `${where}: ${name}`).toMatch(when);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('name the opposite of a required boolean, and refuse a rule they cannot put in words', () => {
    const panel = bodyOf('/modules/reactionroles/panels', 'post').properties;
    expect(panel.content.description).toContain('When `is_register` is false: required (not null).');
    expect(panel.panel_type.description).toContain('When `is_register` is true: must be "emoji".');
    expect(bodyOf('/modules/reactionroles/check', 'post').properties.emoji_name.description).toContain(
      'When `interaction_type` is not "component": required (not null).',
    );
    const unwritable = {
      type: 'object',
      properties: { a: { type: 'integer' } },
      allOf: [{ if: { properties: { a: { minimum: 3 } } }, then: { required: ['a'] } }],
    };
    expect(() => describeConditions(unwritable)).toThrow(/not a const/);
    const unknownField = {
      type: 'object',
      properties: { a: { type: 'integer' } },
      allOf: [{ if: { properties: { a: { const: 1 } } }, then: { required: ['b'] } }],
    };
    expect(() => describeConditions(unknownField)).toThrow(/'b', which is not a field/);
  });
});
