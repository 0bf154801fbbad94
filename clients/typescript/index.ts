/**
 * A typed client of the Guild Module Management Service, for bot authors and
 * dashboards: openapi-fetch over the types openapi-typescript generates from
 * the service's OpenAPI document (`schema.d.ts`, regenerated with
 * `npm run client`). Every path, body, query and answer is typed; IDs are
 * strings.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** Every error answer: `error.name` says which one, `error.message` every problem found. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

export interface GuildModulesClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's address, e.g. `http://127.0.0.1:3000` or `https://<api>/v1`. */
  baseUrl: string;
  /** The service token, or a guild API key (`gmk....`). */
  token: string;
}

export type GuildModulesClient = Client<paths>;

export function createGuildModulesClient({ baseUrl, token, headers, ...options }: GuildModulesClientOptions): GuildModulesClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${token}` },
  });
}
