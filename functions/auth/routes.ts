import type { Route } from '../../shared/http/route.js';

export const routes: Route[] = [
  { id: 'auth.create-api-key', method: 'POST', path: '/auth/api-key', access: 'internal', file: 'functions/auth/create-api-key.ts', summary: 'Mint a guild API key (the secret is shown once)' },
  { id: 'auth.list-api-keys', method: 'GET', path: '/auth/api-key', access: 'internal', file: 'functions/auth/list-api-keys.ts', summary: "List a guild's API keys (no secrets)" },
  { id: 'auth.delete-api-key', method: 'DELETE', path: '/auth/api-key', access: 'internal', file: 'functions/auth/delete-api-key.ts', summary: 'Revoke a guild API key at once' },
];
