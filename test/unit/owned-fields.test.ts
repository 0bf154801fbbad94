import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { schemaOf } from '#shared/http/route.js';
import { ownedFieldsOf } from '#shared/http/endpoint.js';
import { loadSpec } from '#shared/http/load-handler.js';
import { inputSchema, type JsonSchema } from '../helpers/schema-samples.js';

/**
 * Behaviour §13 for every route, found by walking every route's request
 * schemas (so a new route is covered without a list): every field whose name
 * says it names a channel, category, role, message or invite is declared as
 * a platform object of the request's guild (and so checked by the endpoint
 * factory before the use case), or is in the reasoned list below.
 */

/** Field names of the ID kinds: `channel_id`, `target_channel_id`, `verifier_channel`, `role_ids`, `autorole_role_ids`, `message_id`, `invite_code`, `counters_category_id` ... */
const ID_KIND = /(^|_)(channel|category|role|message|invite)(_ids?|_code)?$|(^|_)roles$/;

/**
 * Fields of those kinds that are not checked, and why (`route.id where.path`;
 * `*` is every item of a list). Behaviour §13 leaves out events about what
 * the platform already deleted and statistics the service only records.
 */
const NOT_CHECKED: [RegExp, string][] = [
  [/^invite-tracker\.invite-deleted body\.invite_code$/, 'an event about an invite the platform deleted'],
  [/^polls\.delete-poll-on-message-delete body\.(channel_id|interacted_message_id)$/, 'an event about a message the platform deleted'],
  [/^reactionroles\.check-delete body\.(channel_id|message_id)$/, 'an event about a message or channel the platform deleted'],
  [/^serverstats\.(check-delete-counters|starboard-check-delete) body\.channel_id$/, 'an event about a channel the platform deleted'],
  [/^serverstats\.starboard-check-deleted-message body\.message_id$/, 'an event about a message the platform deleted'],
  [/^serverstats\.stats\.[a-z.]+\.(record|close) body\.(channel_id|message_id)$/, 'a statistic the service only records'],
  [/^serverstats\.stats\.[a-z.]+\.fetch query\.channel_id$/, "filters the guild's own recorded statistics; nothing on the platform is read or changed"],
  [
    /^invite-tracker\.invite-created body\.(invite_code|channel_id)$/,
    "an event: the handler finds the code among the guild's own invites (GET /guilds/{g}/invites) and keeps the channel that list names",
  ],
  [
    /^polls\.vote body\.(channel_id|message_id|interacted_message_id)$/,
    "finds the guild's poll in the table by them; a vote acts on the poll's own channel and message",
  ],
  [/^reactionroles\.check body\.(channel_id|message_id)$/, "finds the guild's panel in the table by them; the roles granted are the panel's own"],
  [
    /^serverstats\.starboard-check-(add|remove) body\.message_id$/,
    "read by the handler in body.channel_id, which is checked: a message of the guild's channel is the guild's, and one gone meanwhile is the handler's answer",
  ],
];

interface Field {
  route: (typeof routes)[number];
  key: string;
}

/** The JSON types a schema allows. */
const typesOf = (schema: JsonSchema): string[] => (schema.anyOf ? schema.anyOf.flatMap(typesOf) : ([] as string[]).concat(schema.type ?? 'any'));

/** Every field of the ID kinds in a part's JSON Schema, at any depth, as `where.a.*.b` (a true/false setting names nothing). */
function idFields(schema: JsonSchema, at: string, out: Set<string>): Set<string> {
  for (const option of [...(schema.anyOf ?? []), ...((schema.allOf as JsonSchema[] | undefined) ?? [])]) idFields(option, at, out);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (ID_KIND.test(name) && !typesOf(property).every((type) => type === 'boolean' || type === 'null')) out.add(`${at}.${name}`);
    idFields(property, `${at}.${name}`, out);
  }
  if (schema.items) idFields(schema.items, `${at}.*`, out);
  return out;
}

const found: Field[] = [];
const declared = new Map<string, ReturnType<typeof ownedFieldsOf>[number]>();
const routesWithDeclared = new Map<string, { route: (typeof routes)[number]; spec: Awaited<ReturnType<typeof loadSpec>> }>();
for (const route of routes) {
  const spec = await loadSpec(route);
  for (const where of ['path', 'query', 'body'] as const) {
    const schema = schemaOf(spec, where);
    if (schema) for (const key of idFields(inputSchema(schema), where, new Set())) found.push({ route, key: `${route.id} ${key}` });
  }
  for (const field of ownedFieldsOf(spec)) {
    declared.set(`${route.id} ${field.where}.${field.path.join('.')}`, field);
    routesWithDeclared.set(route.id, { route, spec });
  }
}

describe('platform objects named by requests (contract 13), in every route', () => {
  it('every field naming a channel, category, role, message or invite is checked, or not checked for a stated reason', () => {
    // A list of roles is checked item by item.
    const isDeclared = (key: string) => declared.has(key) || declared.has(`${key}.*`);
    const unchecked = found.filter((f) => !isDeclared(f.key) && !NOT_CHECKED.some(([pattern]) => pattern.test(f.key))).map((f) => f.key);
    expect(unchecked).toEqual([]);
  });

  it('no field is both checked and excused, and every excuse still matches a field', () => {
    expect([...declared.keys()].filter((key) => NOT_CHECKED.some(([pattern]) => pattern.test(key)))).toEqual([]);
    const stale = NOT_CHECKED.filter(([pattern]) => !found.some((f) => pattern.test(f.key))).map(([pattern]) => String(pattern));
    expect(stale).toEqual([]);
  });

  it('are found where the issue saw them go unchecked', () => {
    expect([...declared.keys()]).toEqual(
      expect.arrayContaining([
        'invite-tracker.create-invite body.channel_id',
        'invite-tracker.delete-invite body.invite_code',
        'socials.create-rss body.target_channel_id',
        'socials.send-meme body.message_id',
        'polls.create-poll body.channel_id',
        'giveaways.create-entry body.channel_id',
        'reactionroles.create-panel body.register_message_id',
        'reactionroles.add-entry body.role_ids.*',
        'welcoming.update-settings body.welcome_messages_channel',
        'verifier.update-settings body.verifier_channel',
        'serverstats.update-settings body.starboard_channel_id',
        'invite-tracker.update-settings body.join_messages_channel',
        'serverstats.update-settings body.counters_category_id',
      ]),
    );
  });

  it('a message is checked with its channel, which is checked too, and every checking route names its guild', () => {
    for (const [key, field] of declared) {
      if (field.declaration.kind !== 'message') continue;
      const channelKey = key.replace(/[^.]+$/, field.declaration.channelField ?? '?');
      expect({ key, channel: declared.get(channelKey)?.declaration.kind }).toEqual({ key, channel: 'channel' });
    }
    for (const { route, spec } of routesWithDeclared.values()) {
      const guildIn = (['query', 'body'] as const).filter((where) => spec[where] && (inputSchema(spec[where]).required ?? []).includes('guild_id'));
      expect({ route: route.id, guildIn: guildIn.length > 0 }).toEqual({ route: route.id, guildIn: true });
    }
  });

  it('counts what the check covers', () => {
    const excused = found.filter((f) => !declared.has(f.key) && !declared.has(`${f.key}.*`)).length;
    const byKind = new Map<string, number>();
    for (const field of declared.values()) byKind.set(field.declaration.kind, (byKind.get(field.declaration.kind) ?? 0) + 1);
    console.info(
      `ownership check: ${routesWithDeclared.size} routes, ${declared.size} fields (${[...byKind].map(([kind, n]) => `${kind} ${n}`).join(', ')}); ${excused} fields of those kinds not checked, each for a stated reason`,
    );
    // Platform reads of the check when every such field names a different object: a channel or category
    // is read until known (then kept), the roles once a request, a message and an invite each time.
    for (const { route, spec } of routesWithDeclared.values()) {
      const kinds = ownedFieldsOf(spec).map((f) => f.declaration.kind);
      const count = (kind: string) => kinds.filter((k) => k === kind).length;
      const always = (count('role') ? 1 : 0) + count('message') + count('invite');
      const channels = count('channel') + count('category');
      console.info(`  ${route.id}: ${always + channels} platform reads at most, ${always} with its channels known`);
    }
    // The endpoint factory refuses to build an endpoint that declares such fields without naming the check.
    expect([...routesWithDeclared.values()].filter(({ spec }) => !spec.owned).map(({ route }) => route.id)).toEqual([]);
  });
});
