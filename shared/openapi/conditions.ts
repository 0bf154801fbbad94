/**
 * Conditional requirements in words. A schema states a rule that depends on
 * another field as an `allOf` entry of `if`/`then`/`else` (see
 * `requiredWhen` in shared/http/schemas.ts), which validators read but the
 * documentation page does not show. The document builder runs every schema
 * through {@link describeConditions}, so each field such a rule touches says
 * when it is required or what it must be, from the rule itself: a rule is
 * written once, and its words cannot drift from it.
 */
type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const shown = (value: unknown) => JSON.stringify(value);

/** The `if` of a rule in words (`poll_type` is 2), and its opposite for `else`. Only `const` conditions are written. */
function conditionOf(condition: JsonSchema, alwaysGiven: ReadonlySet<string>): { holds: string; fails: string } {
  const properties = (condition.properties ?? {}) as Record<string, JsonSchema>;
  const terms = Object.entries(properties).map(([name, rule]) => {
    if (!('const' in rule)) throw new Error(`A conditional rule on '${name}' is not a const: describeConditions cannot put it in words`);
    return { name, value: shown(rule.const), opposite: typeof rule.const === 'boolean' && alwaysGiven.has(name) ? shown(!rule.const) : null };
  });
  if (terms.length === 0) throw new Error('A conditional rule has no condition on a field');
  const holds = terms.map(({ name, value }) => `\`${name}\` is ${value}`).join(' and ');
  const [only] = terms;
  // A required boolean's opposite is named (`is_register` is false): being required, it is never absent.
  const fails =
    terms.length > 1 ? `not all of ${holds}` : only!.opposite ? `\`${only!.name}\` is ${only!.opposite}` : `\`${only!.name}\` is not ${only!.value}`;
  return { holds, fails };
}

/** What a branch asks of one field, beyond being given: `must be null`, `one of 1, 2, 3`, `an integer from 1 to 100`. */
function demandOf(rule: JsonSchema): string | null {
  if ('const' in rule) return `must be ${shown(rule.const)}`;
  if (rule.type === 'null') return 'must be null';
  if (Array.isArray(rule.enum)) return `one of ${rule.enum.map(shown).join(', ')}`;
  if (rule.type === 'integer' && (rule.minimum !== undefined || rule.maximum !== undefined)) {
    if (rule.minimum !== undefined && rule.maximum !== undefined) return `an integer from ${rule.minimum} to ${rule.maximum}`;
    return rule.minimum !== undefined ? `an integer of at least ${rule.minimum}` : `an integer of at most ${rule.maximum}`;
  }
  return null;
}

/** The sentence a branch adds to each field it names: `When \`poll_type\` is 2: required (not null), an integer from 1 to 100.` */
function sentencesOf(branch: JsonSchema, when: string): Map<string, string> {
  const required = new Set((branch.required as string[] | undefined) ?? []);
  const rules = (branch.properties ?? {}) as Record<string, JsonSchema>;
  const sentences = new Map<string, string>();
  for (const name of new Set([...required, ...Object.keys(rules)])) {
    const demands = [required.has(name) ? 'required (not null)' : null, rules[name] ? demandOf(rules[name]) : null].filter(Boolean);
    if (demands.length) sentences.set(name, `When ${when}: ${demands.join(', ')}.`);
  }
  return sentences;
}

/** Adds the conditional rules of one object schema (its `allOf` entries with `if`) to its fields' descriptions. */
function describeObject(schema: JsonSchema): void {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const rules = (Array.isArray(schema.allOf) ? schema.allOf : []).filter((part): part is JsonSchema => isObject(part) && 'if' in part);
  if (!properties || rules.length === 0) return;
  for (const rule of rules) {
    const { holds, fails } = conditionOf(rule.if as JsonSchema, new Set((schema.required as string[] | undefined) ?? []));
    const branches: [unknown, string][] = [
      [rule.then, holds],
      [rule.else, fails],
    ];
    for (const [branch, when] of branches) {
      if (!isObject(branch)) continue;
      for (const [name, sentence] of sentencesOf(branch, when)) {
        const property = properties[name];
        if (!property) throw new Error(`A conditional rule names '${name}', which is not a field of its schema`);
        property.description = property.description ? `${property.description} ${sentence}` : sentence;
      }
    }
  }
}

/**
 * Gives every field a conditional rule touches a description saying when it
 * is required or what it must be, in every object schema within `schema`
 * (changed in place; the rules themselves stay for validators and examples).
 */
export function describeConditions<T>(schema: T): T {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) if (key !== 'if' && key !== 'then' && key !== 'else') visit(child);
    describeObject(value);
  };
  visit(schema);
  return schema;
}
