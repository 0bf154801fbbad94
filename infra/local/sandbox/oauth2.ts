/**
 * The platform's OAuth2 on the sandbox (authorization code grant), for one
 * registered application: its client ID, secret and redirect URIs.
 *
 *   GET  /oauth2/authorize        the page where a person picks the member they are and approves
 *                                 (or cancels); wrong client, redirect URI, scope or response type:
 *                                 the platform's error page (400), and no redirect
 *   POST /oauth2/authorize        the page's form: redirects to the redirect URI with `code` and
 *                                 `state` (or `error=access_denied` and `state`)
 *   POST /api/v10/oauth2/token    form-encoded; the client by HTTP Basic or `client_id` and
 *                                 `client_secret` in the body; `authorization_code` (a code works
 *                                 once, for 10 minutes, with the redirect URI it was asked with) and
 *                                 `refresh_token`; errors as RFC 6749 writes them (`invalid_grant`...)
 *   GET  /api/v10/users/@me       the member of a bearer token (scope `identify`), or the bot
 *   GET  /api/v10/users/@me/guilds the member's guilds with `owner` and `permissions` (scope `guilds`), or the bot's
 *
 * A bearer token lasts 7 days of the sandbox clock (`POST /_sandbox/clock`
 * moves it), as the platform's do; refreshing it replaces both tokens.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIUser, RESTAPIPartialCurrentUserGuild, RESTPostOAuth2AccessTokenResult } from 'discord-api-types/v10';
import { clockNow } from '#shared/clock.js';
import { FormErrors, unauthorized } from './errors.js';
import { guildPermissionsOf } from './permissions.js';
import type { Reply, Route } from './router.js';
import { BOT_ROLE_PERMISSIONS, guildOf, isMember, userView } from './routes/members.js';
import { BOT_USER, type SandboxState, type StoredAccessToken } from './state.js';

/** The application registered on the sandbox platform (the service's dashboard). */
export interface OAuth2Application {
  /** The application's ID, which is also its bot's user ID on the sandbox. */
  client_id: string;
  client_secret: string;
  /** Exactly the URIs an authorization may redirect to (compared as strings, as the platform does). */
  redirect_uris: string[];
}

/** The scopes the sandbox knows: what the dashboard asks for. */
const SCOPES = new Set(['identify', 'guilds']);
/** Members the authorize page lists at most. */
const MAX_LISTED = 100;
/** How long a code may wait for its exchange. */
const CODE_TTL_MS = 10 * 60_000;
/** How long an access token lasts, in seconds (the platform's: a week). */
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

const mint = () => randomBytes(24).toString('base64url');
const isSnowflake = (value: unknown): value is string => typeof value === 'string' && /^[0-9]{1,20}$/.test(value);
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An authorization request whose client, redirect URI and scopes are the registered ones. */
interface AuthorizeRequest {
  redirectUri: string;
  scopes: string[];
  state: string | null;
}

/** Checks an authorization request as the platform does: answers it, or the error its page shows. */
function readAuthorize(app: OAuth2Application, params: URLSearchParams): AuthorizeRequest | { error: string } {
  if (params.get('client_id') !== app.client_id) return { error: 'Unknown Application: client_id is not a registered application.' };
  const asked = params.get('redirect_uri');
  const redirectUri = asked ?? (app.redirect_uris.length === 1 ? app.redirect_uris[0]! : null);
  if (redirectUri === null || !app.redirect_uris.includes(redirectUri))
    return { error: 'Invalid OAuth2 redirect_uri: it is not one the application registered.' };
  if (params.get('response_type') !== 'code') return { error: 'Invalid response_type: this application uses "code".' };
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  const unknown = scopes.filter((s) => !SCOPES.has(s));
  if (scopes.length === 0 || unknown.length > 0)
    return { error: `Invalid scope: ${unknown.join(' ') || '(none)'}; the sandbox has ${[...SCOPES].join(', ')}.` };
  const prompt = params.get('prompt');
  if (prompt !== null && prompt !== 'consent' && prompt !== 'none') return { error: 'Invalid prompt: "consent" or "none".' };
  return { redirectUri, scopes: [...new Set(scopes)], state: params.get('state') };
}

/** The users a person may say they are: every non-bot user the sandbox knows, by ID. */
function knownMembers(state: SandboxState): string[] {
  const ids = new Set<string>(state.users.keys());
  for (const users of state.members.values()) for (const id of users.keys()) ids.add(id);
  for (const guild of state.guilds.values()) for (const id of guild.members?.keys() ?? []) ids.add(id);
  return [...ids].filter((id) => isSnowflake(id) && id !== BOT_USER.id && !state.users.get(id)?.bot).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

const style = `*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;background:#313338;color:#dbdee1;display:grid;place-items:center;min-height:100vh}
main{background:#2b2d31;border-radius:8px;padding:24px;width:min(460px,94vw)}h1{font-size:18px;color:#fff;margin:0 0 8px}p,li{color:#b5bac1}.sub{font-size:12px;color:#949ba4}
fieldset{border:1px solid #3f4147;border-radius:6px;margin:12px 0;padding:8px 12px;max-height:45vh;overflow-y:auto}legend{color:#fff;padding:0 4px}label{display:block;padding:3px 0}
input[type=text]{background:#1e1f22;color:#dbdee1;border:1px solid #3f4147;border-radius:4px;padding:4px 6px;font:inherit}.error{color:#fa777c}
.row{display:flex;gap:8px;justify-content:flex-end;margin-top:12px}button{border:0;border-radius:4px;padding:8px 16px;color:#fff;font:inherit;cursor:pointer}.s1{background:#5865f2}.s2{background:#4e5058}
:focus-visible{outline:2px solid #00a8fc;outline-offset:1px}`;

function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${style}</style></head><body><main>${body}</main></body></html>`;
}

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // No script, no outside asset; not framed, so a page elsewhere cannot trick a click on Authorize.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

/** An HTML answer of the authorize page. */
export interface HtmlReply {
  status: number;
  headers: Record<string, string>;
  html?: string;
}

const errorPage = (message: string): HtmlReply => ({
  status: 400,
  headers: HTML_HEADERS,
  html: htmlPage('Authorization failed', `<h1>Something went wrong</h1><p role="alert">${escapeHtml(message)}</p>`),
});

const SCOPE_TEXT: Record<string, string> = { identify: 'Know your username and avatar', guilds: 'Know which guilds you are in, and what you may do in each' };

function consentPage(state: SandboxState, params: URLSearchParams, request: AuthorizeRequest, problem?: string): HtmlReply {
  const hidden = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'prompt']
    .filter((name) => params.has(name))
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params.get(name)!)}">`)
    .join('');
  const chosen = params.get('user_id');
  const known = knownMembers(state);
  // A guild made large for the bench would make the list a wall: the first ones, and the ID field for the rest.
  const members = known.slice(0, MAX_LISTED).map((id) => {
    const user = userView(state, id);
    const checked = chosen === id ? ' checked' : '';
    return `<label><input type="radio" name="user_id" value="${id}" id="member-${id}"${checked}> ${escapeHtml(user.global_name ?? user.username)} <span class="sub">${id}</span></label>`;
  });
  const other = params.get('other_user_id') ?? '';
  const body = `<h1>${escapeHtml(BOT_USER.global_name ?? BOT_USER.username)} wants to access your account</h1>
<p>This will allow the developer of ${escapeHtml(BOT_USER.global_name ?? BOT_USER.username)} to:</p><ul>${request.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('')}</ul>
<form method="post" action="/oauth2/authorize">${hidden}
<fieldset><legend>Who are you? (sandbox: pick a member)</legend>${members.join('')}
${known.length > MAX_LISTED ? `<p class="sub">and ${known.length - MAX_LISTED} more: type one's ID below</p>` : ''}
<label><input type="radio" name="user_id" value="" id="member-other"${chosen === '' ? ' checked' : ''}> Another member: <input type="text" name="other_user_id" value="${escapeHtml(other)}" inputmode="numeric" aria-label="another member's ID" placeholder="member ID"></label></fieldset>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<p class="sub">Once you authorize, you will be redirected to ${escapeHtml(request.redirectUri)}</p>
<div class="row"><button type="submit" name="decision" value="cancel" class="s2">Cancel</button><button type="submit" name="decision" value="approve" class="s1">Authorize</button></div></form>`;
  return { status: problem ? 400 : 200, headers: HTML_HEADERS, html: htmlPage('Authorize access to your account', body) };
}

/** Where the browser goes back to: the redirect URI with these parameters added to its own. */
function redirect(request: AuthorizeRequest, add: Record<string, string>): HtmlReply {
  const target = new URL(request.redirectUri);
  for (const [name, value] of Object.entries(add)) target.searchParams.set(name, value);
  if (request.state !== null) target.searchParams.set('state', request.state);
  return { status: 302, headers: { Location: target.toString(), 'Cache-Control': 'no-store' } };
}

/** Drops codes past their time, so a long local session does not keep them all. */
function pruneCodes(state: SandboxState, now: number): void {
  for (const [code, stored] of state.oauth2.codes) if (stored.expires_at < now) state.oauth2.codes.delete(code);
}

async function readText(req: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `GET` and `POST /oauth2/authorize`: the page, then the redirect with a code (or the refusal). */
export async function answerAuthorize(state: SandboxState, app: OAuth2Application, req: IncomingMessage, url: URL): Promise<HtmlReply> {
  if (req.method !== 'GET' && req.method !== 'POST') return { status: 405, headers: { Allow: 'GET, POST' } };
  const params = req.method === 'POST' ? new URLSearchParams(await readText(req, 64 * 1024)) : url.searchParams;
  const request = readAuthorize(app, params);
  if ('error' in request) return errorPage(request.error);
  if (req.method === 'GET') return consentPage(state, params, request);
  if (params.get('decision') !== 'approve') {
    return redirect(request, { error: 'access_denied', error_description: 'The resource owner or authorization server denied the request' });
  }
  const userId = params.get('user_id') || params.get('other_user_id')?.trim() || '';
  if (!isSnowflake(userId)) return consentPage(state, params, request, 'Pick the member you are, or type a member ID (digits).');
  const now = clockNow();
  pruneCodes(state, now);
  const code = mint();
  state.oauth2.codes.set(code, { user_id: userId, scopes: request.scopes, redirect_uri: request.redirectUri, expires_at: now + CODE_TTL_MS });
  return redirect(request, { code });
}

/** An OAuth2 error answer as RFC 6749 writes it, which the platform follows. */
const oauthError = (status: number, error: string, description?: string): Reply => ({
  status,
  headers: { 'Cache-Control': 'no-store' },
  body: description === undefined ? { error } : { error, error_description: description },
});

/** The client of a token request: HTTP Basic, else `client_id` and `client_secret` in the body; null when it is not the application. */
function clientOf(app: OAuth2Application, authorization: string | undefined, form: URLSearchParams): boolean {
  let id = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text.replace(/\+/g, ' '));
      } catch {
        return text;
      }
    };
    id = colon < 0 ? null : decode(decoded.slice(0, colon));
    secret = colon < 0 ? null : decode(decoded.slice(colon + 1));
  }
  return id === app.client_id && secret === app.client_secret;
}

function issue(state: SandboxState, userId: string, scopes: string[]): RESTPostOAuth2AccessTokenResult {
  const accessToken = mint();
  const refreshToken = mint();
  state.oauth2.tokens.set(accessToken, { user_id: userId, scopes, expires_at: clockNow() + TOKEN_TTL_SECONDS * 1000, refresh_token: refreshToken });
  state.oauth2.refresh.set(refreshToken, accessToken);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, refresh_token: refreshToken, scope: scopes.join(' ') };
}

function revoke(state: SandboxState, accessToken: string): void {
  const stored = state.oauth2.tokens.get(accessToken);
  if (stored) state.oauth2.refresh.delete(stored.refresh_token);
  state.oauth2.tokens.delete(accessToken);
}

/** `POST /oauth2/token`: a code or a refresh token for a new pair of tokens. */
function exchange(state: SandboxState, app: OAuth2Application, authorization: string | undefined, form: URLSearchParams): Reply {
  if (!clientOf(app, authorization, form)) return oauthError(401, 'invalid_client');
  const grant = form.get('grant_type');
  if (grant === 'authorization_code') {
    const code = form.get('code');
    if (!code) return oauthError(400, 'invalid_request', 'Missing "code" in request.');
    const redirectUri = form.get('redirect_uri');
    if (!redirectUri) return oauthError(400, 'invalid_request', 'Missing "redirect_uri" in request.');
    const stored = state.oauth2.codes.get(code);
    if (!stored || stored.expires_at < clockNow()) return oauthError(400, 'invalid_grant', 'Invalid "code" in request.');
    if (stored.access_token !== undefined) {
      // A code presented twice was seen by someone else: what it gave is taken back (RFC 6749 §4.1.2).
      revoke(state, stored.access_token);
      return oauthError(400, 'invalid_grant', 'Invalid "code" in request.');
    }
    if (redirectUri !== stored.redirect_uri) return oauthError(400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
    const tokens = issue(state, stored.user_id, stored.scopes);
    stored.access_token = tokens.access_token;
    return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: tokens };
  }
  if (grant === 'refresh_token') {
    const refreshToken = form.get('refresh_token');
    if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing "refresh_token" in request.');
    const accessToken = state.oauth2.refresh.get(refreshToken);
    const stored = accessToken === undefined ? undefined : state.oauth2.tokens.get(accessToken);
    if (!stored) return oauthError(400, 'invalid_grant', 'Invalid "refresh_token" in request.');
    revoke(state, accessToken!);
    return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: issue(state, stored.user_id, stored.scopes) };
  }
  return oauthError(400, 'unsupported_grant_type');
}

/**
 * Who calls: null for the bot (`Bot` token), else the bearer token's member,
 * which must hold `scope`; 401 for an unknown or expired token, or one
 * without the scope.
 */
function callerOf(state: SandboxState, authorization: string | undefined, scope: string): StoredAccessToken | null {
  const bearer = /^Bearer\s+(\S+)$/.exec(authorization ?? '');
  if (!bearer) return null;
  const stored = state.oauth2.tokens.get(bearer[1]!);
  if (!stored || stored.expires_at <= clockNow() || !stored.scopes.includes(scope)) throw unauthorized();
  return stored;
}

/** `GET /users/@me/guilds`: the guilds the member is in (the bot: every guild it knows), by ascending ID, paged by `before`, `after` and `limit` (1..200, default 200). */
function currentUserGuilds(state: SandboxState, caller: StoredAccessToken | null, query: URLSearchParams): RESTAPIPartialCurrentUserGuild[] {
  const errors = new FormErrors();
  const limitText = query.get('limit');
  const limit = limitText === null ? 200 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) errors.add(['limit'], 'NUMBER_TYPE_MAX', 'int value should be between 1 and 200.');
  for (const name of ['before', 'after']) {
    const value = query.get(name);
    if (value !== null && !isSnowflake(value)) errors.add([name], 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
  }
  errors.throwIfAny();
  const after = BigInt(query.get('after') ?? '0');
  const before = query.get('before') === null ? null : BigInt(query.get('before')!);
  const userId = caller?.user_id;
  const ids = new Set([...state.guilds.keys()]);
  if (userId) for (const [guildId, users] of state.members) if (users.has(userId)) ids.add(guildId);
  const inRange = [...ids]
    .filter((id) => isSnowflake(id) && BigInt(id) > after && (before === null || BigInt(id) < before))
    .filter((id) => !userId || isMember(state, id, userId))
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  // `before` alone pages backwards: the guilds just below it.
  const page = before !== null && query.get('after') === null ? inRange.slice(-limit) : inRange.slice(0, limit);
  const withCounts = query.get('with_counts') === 'true';
  return page.map((id) => {
    const guild = guildOf(state, id);
    const view: RESTAPIPartialCurrentUserGuild = {
      id,
      name: guild.name,
      icon: null,
      banner: null,
      owner: userId !== undefined && guild.owner_id === userId,
      features: [],
      permissions: userId ? String(guildPermissionsOf(state, id, userId)) : BOT_ROLE_PERMISSIONS,
    };
    if (!withCounts) return view;
    const count = guild.members ? guild.members.size : (state.members.get(id)?.size ?? 0);
    return { ...view, approximate_member_count: count, approximate_presence_count: guild.presence_count ?? count };
  });
}

function currentUser(state: SandboxState, caller: StoredAccessToken | null): APIUser {
  return caller ? userView(state, caller.user_id) : (userView(state, BOT_USER.id) as APIUser);
}

/** The platform routes of OAuth2 (the token exchange, and who a bearer token is); list them before `/users/:user`. */
export function oauth2Routes(app: OAuth2Application): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/oauth2/token',
      public: true,
      form: true,
      handle: ({ state, rawBody, authorization }) => exchange(state, app, authorization, new URLSearchParams(rawBody ?? '')),
    },
    {
      method: 'GET',
      pattern: '/users/@me',
      bearer: true,
      handle: ({ state, authorization }) => ({ status: 200, body: currentUser(state, callerOf(state, authorization, 'identify')) }),
    },
    {
      method: 'GET',
      pattern: '/users/@me/guilds',
      bearer: true,
      handle: ({ state, authorization, query }) => ({ status: 200, body: currentUserGuilds(state, callerOf(state, authorization, 'guilds'), query) }),
    },
  ];
}

/** The application's registration as the control routes show it (never its secret). */
const applicationView = (app: OAuth2Application) => ({ client_id: app.client_id, redirect_uris: app.redirect_uris });

/** `GET`/`PUT /_sandbox/application/oauth2` `{redirect_uris}`: where authorizations may redirect to. */
export function oauth2ControlRoutes(app: OAuth2Application): Route[] {
  return [
    { method: 'GET', pattern: '/application/oauth2', handle: () => ({ status: 200, body: applicationView(app) }) },
    {
      method: 'PUT',
      pattern: '/application/oauth2',
      handle: ({ body }) => {
        const uris = body && typeof body === 'object' ? (body as Record<string, unknown>).redirect_uris : undefined;
        const absolute = (uri: unknown) => {
          if (typeof uri !== 'string') return false;
          try {
            return /^https?:$/.test(new URL(uri).protocol);
          } catch {
            return false;
          }
        };
        if (!Array.isArray(uris) || uris.length > 10 || !uris.every(absolute)) {
          const errors = new FormErrors();
          errors.add(['redirect_uris'], 'BASE_TYPE_ARRAY', 'Up to 10 absolute http(s) URLs.');
          throw errors.toError();
        }
        app.redirect_uris = [...(uris as string[])];
        return { status: 200, body: applicationView(app) };
      },
    },
  ];
}
