/**
 * The sandbox platform: an in-memory fake of the part of the Discord HTTP
 * API v10 the service uses, served under `/api/v10`, with control routes
 * under `/_sandbox` and a page for people at `/`.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createChangeFeed } from './changes.js';
import { SandboxError, invalidJson, unauthorized } from './errors.js';
import { faultReply, takeFault } from './faults.js';
import { createGateway } from './gateway.js';
import { renderPage } from './page.js';
import { persistState } from './persist.js';
import { type Reply, type Route, findRoute } from './router.js';
import { channelRoutes } from './routes/channels.js';
import { commandRoutes } from './routes/commands.js';
import { controlRoutes } from './routes/control.js';
import { gatewayControlRoutes, gatewayRoutes } from './routes/gateway.js';
import { guildChannelRoutes } from './routes/guild-channels.js';
import { guildRoutes } from './routes/guilds.js';
import { type OAuth2Application, answerAuthorize, oauth2ControlRoutes, oauth2Routes } from './oauth2.js';
import { permissionControlRoutes } from './permissions.js';
import { inviteRoutes } from './routes/invites.js';
import { messageRoutes } from './routes/messages.js';
import { pollRoutes } from './routes/polls.js';
import { reactionRoutes } from './routes/reactions.js';
import { interactionRoutes } from './routes/interactions.js';
import { webhookRoutes } from './routes/webhooks.js';
import { answerSource, sourceControlRoutes } from './sources/routes.js';
import { snapshot } from './snapshot.js';
import { BOT_USER, createState, resetState, type SandboxState } from './state.js';

export { BOT_USER } from './state.js';
export type { SandboxState } from './state.js';

/** Where the platform API lives on the sandbox, as on the platform. */
export const API_PREFIX = '/api/v10';
/** Where the control routes live. */
export const CONTROL_PREFIX = '/_sandbox';

/** Reaction routes first: their `@me` literals must win over message routes' parameters. */
const apiRoutes: Route[] = [
  ...reactionRoutes,
  ...messageRoutes,
  ...pollRoutes,
  ...inviteRoutes,
  ...channelRoutes,
  ...guildRoutes,
  ...webhookRoutes,
  ...guildChannelRoutes,
  ...interactionRoutes,
  ...commandRoutes,
];

/** The request log keeps this many entries, so a long local session does not grow without end. */
const MAX_LOGGED_REQUESTS = 10_000;
/** Bodies beyond this are refused, as the platform refuses oversized requests. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface SandboxOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /**
   * The platform's global rate limit, API requests a second across the bot
   * (the real one is 50); past it, 429 with `global: true` and the time until
   * a request is free. Default `SANDBOX_GLOBAL_RATE`, else none.
   */
  globalRate?: number;
  /** The bot token the gateway accepts (IDENTIFY, RESUME, `GET /gateway/bot`). Default: a new random one. */
  botToken?: string;
  /** HELLO's heartbeat interval in ms. Default 41250, as the platform's. */
  heartbeatIntervalMs?: number;
  /** Keep the state in this directory across restarts (persist.ts); default none: in memory only. */
  dataDir?: string | null;
  /**
   * The OAuth2 application registered on the sandbox (oauth2.ts): its client
   * ID (default the bot's user ID, as the platform numbers an application and
   * its bot), secret (default a new random one) and redirect URIs (default
   * none; `sandbox.application.redirect_uris` or `PUT /_sandbox/application/oauth2` set them later).
   */
  oauth2?: { clientId?: string; clientSecret?: string; redirectUris?: string[] };
}

/** The global rate limit: at most `rate` API requests in any second. Answers null, or how many ms until one is free. */
function globalLimiter(rate: number): () => number | null {
  const sent: number[] = [];
  return () => {
    if (!(rate > 0)) return null;
    const now = Date.now();
    while (sent.length > 0 && sent[0]! <= now - 1000) sent.shift();
    if (sent.length >= rate) return sent[0]! + 1000 - now;
    sent.push(now);
    return null;
  };
}

/** The platform's answer past the global rate limit. */
const globalLimited = (waitMs: number): Reply => {
  const retryAfter = Math.max(0.001, Math.ceil(waitMs) / 1000);
  return {
    status: 429,
    headers: { 'Retry-After': String(Math.ceil(retryAfter)), 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' },
    body: { message: 'You are being rate limited.', retry_after: retryAfter, global: true },
  };
};

export interface Sandbox {
  /** Base URL of the platform API, ending in `/api/v10`: the value for `PLATFORM_API_BASE_URL`. */
  url: string;
  /** `http://host:port`: the HTML page is at `/`, control routes under `/_sandbox`. */
  origin: string;
  port: number;
  /** The gateway's WebSocket URL (`ws://host:port/gateway`), as `GET /api/v10/gateway` answers it. */
  gatewayUrl: string;
  /** The bot token the gateway accepts. */
  botToken: string;
  /** The registered OAuth2 application; its `redirect_uris` may be changed in place. */
  application: OAuth2Application;
  /** The live state; tests may read it (and change it) directly. */
  state: SandboxState;
  /** Forgets everything, like `POST /_sandbox/reset`. */
  reset(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new SandboxError(413, 40005, 'Request entity too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJson();
  }
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  headers['Content-Type'] = 'application/json';
  res.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
}

function errorReply(error: unknown): Reply {
  if (error instanceof SandboxError) return { status: error.status, body: error.toBody() };
  console.error('sandbox platform: unexpected error', error);
  return { status: 500, body: { message: '500: Internal Server Error', code: 0 } };
}

async function answerApi(state: SandboxState, req: IncomingMessage, rawPath: string, url: URL, routes: Route[]): Promise<Reply> {
  const method = req.method ?? 'GET';
  const fault = takeFault(state, method, rawPath);
  if (fault && !fault.after_effect) {
    if (fault.delay_ms) await delay(fault.delay_ms);
    return faultReply(fault);
  }
  const { route, params } = findRoute(routes, method, rawPath);
  // Any bot token is accepted, but it must be sent the way the platform wants it; a person's bearer token only where the platform takes one.
  const authorization = req.headers.authorization ?? '';
  if (!route.public && !/^Bot(\s|$)/.test(authorization) && !(route.bearer && /^Bearer\s/.test(authorization))) throw unauthorized();
  const rawBody = await readBody(req);
  const body = route.form ? undefined : parseBody(rawBody);
  const reply = await route.handle({ state, params, query: url.searchParams, body, rawBody, authorization: req.headers.authorization });
  if (!fault) return reply;
  // The effect is stored; the caller is told it failed (a request the route refused answers its refusal).
  if (fault.delay_ms) await delay(fault.delay_ms);
  return faultReply(fault);
}

async function answerControl(state: SandboxState, req: IncomingMessage, rawPath: string, url: URL, routes: Route[]): Promise<Reply> {
  const { route, params } = findRoute(routes, req.method ?? 'GET', rawPath);
  const body = parseBody(await readBody(req));
  return route.handle({ state, params, query: url.searchParams, body });
}

function logRequest(state: SandboxState, method: string, path: string, status: number): void {
  state.requests.push({ method, path, status, time: new Date().toISOString() });
  if (state.requests.length > MAX_LOGGED_REQUESTS) state.requests.splice(0, state.requests.length - MAX_LOGGED_REQUESTS);
}

/**
 * Starts the sandbox platform on `host:port` (default 127.0.0.1 and any free
 * port) and answers where it listens, its state and how to stop it.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const state = createState();
  const persistence = options.dataDir ? persistState(state, options.dataDir) : null;
  const host = options.host ?? '127.0.0.1';
  let apiUrl = '';
  let origin = '';
  let gatewayUrl = '';
  const botToken = options.botToken ?? randomBytes(24).toString('base64url');
  const gateway = createGateway(state, { token: botToken, heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250 });
  const application: OAuth2Application = {
    client_id: options.oauth2?.clientId ?? BOT_USER.id,
    client_secret: options.oauth2?.clientSecret ?? randomBytes(24).toString('base64url'),
    redirect_uris: [...(options.oauth2?.redirectUris ?? [])],
  };
  // OAuth2's `/users/@me` before the member routes' `/users/:user`.
  const allApiRoutes = [...gatewayRoutes(gateway, () => gatewayUrl), ...oauth2Routes(application), ...apiRoutes];
  const allControlRoutes = [
    ...permissionControlRoutes,
    ...controlRoutes,
    ...gatewayControlRoutes,
    ...oauth2ControlRoutes(application),
    ...sourceControlRoutes(() => origin),
  ];
  const feed = createChangeFeed();
  const limited = globalLimiter(options.globalRate ?? Number(process.env.SANDBOX_GLOBAL_RATE || 0));

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    let reply: Reply;
    try {
      if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
        const rawPath = path.slice(API_PREFIX.length) || '/';
        const waitMs = limited();
        reply = waitMs === null ? await answerApi(state, req, rawPath, url, allApiRoutes).catch(errorReply) : globalLimited(waitMs);
        logRequest(state, req.method ?? 'GET', rawPath, reply.status);
      } else if (path === `${CONTROL_PREFIX}/events` && req.method === 'GET') {
        feed.subscribe(req, res);
        return;
      } else if (path.startsWith(`${CONTROL_PREFIX}/`)) {
        reply = await answerControl(state, req, path.slice(CONTROL_PREFIX.length), url, allControlRoutes);
      } else if (path.startsWith('/sources/')) {
        answerSource(state, req, res, url, origin);
        // Each source counts the requests it received, and the page shows the counts.
        feed.changed();
        return;
      } else if (path === '/oauth2/authorize') {
        const page = await answerAuthorize(state, application, req, url);
        res.writeHead(page.status, page.headers).end(page.html);
        if (req.method === 'POST') persistence?.changed();
        return;
      } else if (path === '/' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(renderPage(snapshot(state), apiUrl, feed.revision()));
        return;
      } else {
        reply = { status: 404, body: { message: '404: Not Found', code: 0 } };
      }
    } catch (error) {
      reply = errorReply(error);
    }
    send(res, reply);
    if (req.method !== 'GET') {
      persistence?.changed();
      feed.changed();
    }
  });

  server.on('upgrade', (req, socket, head) => gateway.upgrade(req, socket, head, gatewayUrl));

  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  apiUrl = `${origin}${API_PREFIX}`;
  gatewayUrl = `${origin.replace(/^http/, 'ws')}/gateway`;

  return {
    url: apiUrl,
    origin,
    port,
    gatewayUrl,
    botToken,
    application,
    state,
    reset: () => {
      resetState(state);
      persistence?.changed();
      feed.changed();
    },
    close: async () => {
      persistence?.flush();
      feed.close();
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
