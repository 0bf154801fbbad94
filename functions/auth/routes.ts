import type { Route } from '#shared/http/route.js';

export const routes: Route[] = [
  {
    id: 'auth.create-api-key',
    method: 'POST',
    path: '/auth/api-key',
    access: 'internal',
    file: 'functions/auth/create-api-key.ts',
    summary: 'Mint a guild API key (the secret is shown once)',
  },
  {
    id: 'auth.list-api-keys',
    method: 'GET',
    path: '/auth/api-key',
    access: 'internal',
    file: 'functions/auth/list-api-keys.ts',
    summary: "List a guild's API keys (no secrets)",
  },
  {
    id: 'auth.delete-api-key',
    method: 'DELETE',
    path: '/auth/api-key',
    access: 'internal',
    file: 'functions/auth/delete-api-key.ts',
    summary: 'Revoke a guild API key at once',
  },
];

/** The routes that mint and revoke guild keys, and so create and delete their API Gateway keys (shared/auth/usage-keys.ts). */
export const KEY_ROUTE_IDS: readonly string[] = ['auth.create-api-key', 'auth.delete-api-key'];
