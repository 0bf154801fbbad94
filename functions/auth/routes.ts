import type { Route } from '#shared/http/route.js';
import { ApiKeyPath, CreateApiKeyBody, DeleteApiKeyBody } from './schemas.js';
import { guildQuery } from '#shared/http/schemas.js';

export const createApiKey = {
  id: 'auth.create-api-key',
  method: 'POST',
  path: '/auth/api-key',
  access: 'internal',
  summary: 'Mint a guild API key (the secret is shown once)',
  body: CreateApiKeyBody,
} as const satisfies Route;

export const listApiKeys = {
  id: 'auth.list-api-keys',
  method: 'GET',
  path: '/auth/api-key',
  access: 'internal',
  summary: "List a guild's API keys (no secrets)",
  query: guildQuery,
} as const satisfies Route;

export const getApiKey = {
  id: 'auth.get-api-key',
  method: 'GET',
  path: '/auth/api-key/{key_id}',
  access: 'internal',
  summary: "One of a guild's API keys, with its last use (no secret)",
  query: guildQuery,
  params: ApiKeyPath,
} as const satisfies Route;

export const deleteApiKey = {
  id: 'auth.delete-api-key',
  method: 'DELETE',
  path: '/auth/api-key',
  access: 'internal',
  summary: 'Revoke a guild API key at once',
  body: DeleteApiKeyBody,
} as const satisfies Route;

export const routes: Route[] = [createApiKey, listApiKeys, getApiKey, deleteApiKey];

/** The routes that mint and revoke guild keys, and so create and delete their API Gateway keys (shared/auth/usage-keys.ts). */
export const KEY_ROUTE_IDS: readonly string[] = ['auth.create-api-key', 'auth.delete-api-key'];
