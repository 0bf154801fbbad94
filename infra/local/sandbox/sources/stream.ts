/** The sandbox stream service: accounts and their live sessions; needs Client-Id and a Bearer token. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';
import type { Route } from '../router.js';
import { json, text } from './http.js';
import { type SourcesState, nextId } from './model.js';

export function stream(state: SourcesState, req: IncomingMessage, res: ServerResponse, parts: string[], url: URL): void {
  if (!req.headers['client-id'] || !/^Bearer .+/.test(req.headers.authorization ?? ''))
    return json(res, 401, { error: 'Unauthorized', status: 401, message: 'OAuth token is missing' });
  if (parts[3] !== 'helix') return json(res, 404, { error: 'Not Found', status: 404 });
  if (parts[4] === 'users') {
    const logins = url.searchParams.getAll('login').map((l) => l.toLowerCase());
    return json(res, 200, {
      data: logins
        .map((l) => state.streams.get(l))
        .filter(Boolean)
        .map((a) => ({ id: a!.id, login: a!.login, display_name: a!.display_name })),
    });
  }
  if (parts[4] === 'streams') {
    const logins = url.searchParams.getAll('user_login').map((l) => l.toLowerCase());
    if (logins.length > 100)
      return json(res, 400, { error: 'Bad Request', status: 400, message: 'The number of user_login query parameters exceeds the maximum allowed' });
    const live = logins.map((l) => state.streams.get(l)).filter((a) => a?.live);
    // Pages as the real service: `first` streams a page (default 20, at most 100), then `after` the cursor answered.
    const first = Math.min(100, Math.max(1, Number(url.searchParams.get('first') ?? 20) || 20));
    const from = Number(Buffer.from(url.searchParams.get('after') ?? '', 'base64url').toString() || 0) || 0;
    const page = live.slice(from, from + first);
    const more = from + first < live.length;
    return json(res, 200, {
      data: page.map((a) => ({
        id: a!.live!.id,
        user_login: a!.login,
        user_name: a!.display_name,
        title: a!.live!.title,
        game_name: 'Sandbox',
        started_at: a!.live!.started_at,
        type: 'live',
      })),
      pagination: more ? { cursor: Buffer.from(String(from + first)).toString('base64url') } : {},
    });
  }
  json(res, 404, { error: 'Not Found', status: 404 });
}

/** Control routes: create an account, go live, go offline. */
export const streamControlRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/sources/stream/:account',
    handle: ({ state, params }) => {
      const key = params.account!.toLowerCase();
      if (!state.sources.streams.has(key)) state.sources.streams.set(key, { id: nextId(state.sources), login: key, display_name: params.account!, live: null });
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: '/sources/stream/:account/live',
    handle: ({ state, params, body }) => {
      const account = state.sources.streams.get(params.account!.toLowerCase());
      if (!account) throw invalidField(['account'], 'UNKNOWN', 'Create the account first.');
      account.live = { id: nextId(state.sources), title: text(body, 'title', false) ?? 'Live now', started_at: new Date().toISOString() };
      return { status: 200, body: account.live };
    },
  },
  {
    method: 'DELETE',
    pattern: '/sources/stream/:account/live',
    handle: ({ state, params }) => {
      const account = state.sources.streams.get(params.account!.toLowerCase());
      if (account) account.live = null;
      return { status: 204 };
    },
  },
];
