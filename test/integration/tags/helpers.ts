import { afterAll, beforeAll } from 'vitest';
import { type CallOptions, type CallResult, failed, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
export { failed, ok };

export const T = '/modules/tags';

export interface World {
  service: TestService;
  /** A call under `/modules/tags`. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  sandbox: ReturnType<typeof sandboxOf>;
}

/** Local mode for the tests of one file (started before them, stopped after). */
export function startWorld(options: { indexLagMs?: number } = {}): World {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService(options);
  });
  afterAll(async () => service?.stop());
  const current = () => {
    if (!service) throw new Error('local mode starts in beforeAll');
    return service;
  };
  return {
    get service() {
      return current();
    },
    call: (method, path, options) => current().call(method, `${T}${path}`, options),
    get sandbox() {
      return sandboxOf(current());
    },
  };
}

/** A guild with the module enabled. */
export async function tagsGuild(world: World): Promise<string> {
  const guild = snowflake();
  ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
  return guild;
}

export interface TagInput {
  names: string[];
  content?: string;
  owner_id?: string;
  visibility?: number;
}

export const createTag = (world: World, guild: string, input: TagInput) =>
  world.call('POST', '/entries', {
    body: {
      guild_id: guild,
      owner_id: input.owner_id ?? snowflake(),
      content: input.content ?? 'Some text',
      visibility: input.visibility ?? 1,
      names: input.names,
    },
  });

/** Creates a tag; answers `{entry, entry_names}`. */
export async function addTag(world: World, guild: string, input: TagInput) {
  return ok(await createTag(world, guild, input));
}

/** The tag holding `name`, or null. */
export async function tagNamed(world: World, guild: string, name: string) {
  const page = ok(await world.call('GET', '/entries', { query: { guild_id: guild, name } }));
  return page.entries[0] ?? null;
}

/** A guild API key for the guild. */
export async function guildApiKey(world: World, guild: string): Promise<string> {
  return ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
}

export const namesOf = (tag: { entry_names: { name: string }[] }) => tag.entry_names.map((n) => n.name);
