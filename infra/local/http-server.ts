import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { routes as allRoutes } from '#functions/routes.js';
import { contextOf } from '#shared/auth/caller.js';
import { authorize } from '#shared/auth/credentials.js';
import { dashboardUsageKeyId } from '#shared/auth/usage-keys.js';
import { guildKeyThrottledReason } from '#shared/auth/messages.js';
import { AppError } from '#shared/errors.js';
import { errorResponse, failureResponse, methodNotAllowed, noSuchRoute } from '#shared/http/envelope.js';
import { MAX_BODY_BYTES, payloadTooLarge } from '#shared/http/limits.js';
import { MIN_COMPRESSION_BYTES, acceptsGzip } from '#shared/http/caching.js';
import { type Route, matchPath } from '#shared/http/route.js';
import { loadHandler } from '#shared/http/load-handler.js';
import { log } from '#shared/observe/log.js';
import { InFlight } from './in-flight.js';
import { KeyRate } from './key-rate.js';
import { lambdaContext } from './lambda-context.js';

/**
 * Local mode's API Gateway: the same route table CDK deploys, the same
 * checks in the same order (404/405, 413, the authorizer's 401/403), then the
 * route's handler with a REST proxy event. Each guild API key is held to its
 * own rate (key-rate.ts), as the usage plan holds it in AWS.
 */

/** Reads at most a little over the limit, so a huge body cannot exhaust memory. */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY_BYTES) throw payloadTooLarge(size);
  return Buffer.concat(chunks).toString('utf8');
}

const gzipped = promisify(gzip);

/**
 * The answer's bytes, gzipped as API Gateway's minimum compression size has
 * it in AWS: when the client accepts gzip and the answer is at least
 * MIN_COMPRESSION_BYTES (the answer then varies by Accept-Encoding).
 */
async function encoded(req: IncomingMessage, headers: Record<string, string>, body: string): Promise<Buffer> {
  const bytes = Buffer.from(body, 'utf8');
  const named = (name: string) => Object.keys(headers).find((key) => key.toLowerCase() === name);
  if (bytes.length < MIN_COMPRESSION_BYTES || named('content-encoding') || !acceptsGzip(req.headers['accept-encoding'])) return bytes;
  const vary = named('vary');
  if (vary) headers[vary] = `${headers[vary]}, accept-encoding`;
  else headers.vary = 'accept-encoding';
  headers['content-encoding'] = 'gzip';
  return gzipped(bytes);
}

/** Sends an answer; a HEAD request gets the GET answer's status and headers without its body. */
async function send(req: IncomingMessage, res: ServerResponse, result: APIGatewayProxyResult): Promise<void> {
  const headers = { ...(result.headers as Record<string, string>) };
  const body = await encoded(req, headers, result.body ?? '');
  if (result.statusCode !== 304 && result.statusCode !== 204) headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode, headers);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Longer URLs are refused as API Gateway would (414), in the envelope. */
const MAX_URL_LENGTH = 8192;

/** The path asked, as written, with runs of slashes folded (`//modules/x` is `/modules/x`); the query apart. */
function pathAndQuery(rawUrl: string): { path: string; url: URL } {
  const at = rawUrl.indexOf('?');
  const rawPath = (at < 0 ? rawUrl : rawUrl.slice(0, at)).replace(/\/{2,}/g, '/') || '/';
  return { path: rawPath, url: new URL(`${rawPath}${at < 0 ? '' : rawUrl.slice(at)}`, 'http://local') };
}

/** An envelope written straight to the socket, for what Node's HTTP parser refuses before any handler. */
function refuse(status: number, name: 'BadRequestError' | 'RequestHeaderFieldsTooLarge', message: string): string {
  const body = JSON.stringify({ success: false, data: {}, error: { code: status, name, message } });
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function queryOf(url: URL): Record<string, string> | null {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return Object.keys(query).length ? query : null;
}

/** What the server is configured with beyond its routes. */
export interface ApiServerOptions {
  /** Requests a second each guild API key may make (bursts of twice that). */
  guildKeyRate: number;
}

export async function handleRequest(req: IncomingMessage, routes: readonly Route[], keyRate: KeyRate): Promise<APIGatewayProxyResult> {
  // HEAD is answered as GET, without the body (see send).
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET').toUpperCase();
  if ((req.url ?? '').length > MAX_URL_LENGTH) {
    return {
      statusCode: 414,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        success: false,
        data: {},
        error: {
          code: 414,
          name: 'URITooLong',
          message: `URI Too Long! The URL has ${(req.url ?? '').length} characters; at most ${MAX_URL_LENGTH} are accepted.`,
        },
      }),
    };
  }
  let url: URL;
  let asked: string;
  try {
    ({ url, path: asked } = pathAndQuery(req.url ?? '/'));
  } catch {
    return errorResponse(new AppError('BadRequestError', 'The request URL could not be read; send a path such as /modules/polls/status.'));
  }
  // `/v1/...` is the deployed stage; both spellings reach the same routes.
  const path = asked.replace(/^\/v1(?=\/|$)/, '') || '/';

  const match = matchPath(routes, path);
  if (!match) return errorResponse(noSuchRoute(method, path));
  const route = match.routes.find((r) => r.method === method);
  if (!route) {
    const refusal = methodNotAllowed(
      method,
      match.template,
      match.routes.map((r) => r.method),
    );
    // A path that answers pages (the verification link) answers this as a page too, as its 405 mock does in AWS.
    return failureResponse(refusal, match.routes[0]!.errorPage);
  }

  let body: string;
  try {
    body = await readBody(req);
  } catch (error) {
    // In Lambda the handler answers this 413 itself, so a route answering pages answers it as a page here too.
    return failureResponse(error as AppError, route.errorPage);
  }

  const headers = headersOf(req);
  let authorizer: Record<string, string> | null = null;
  if (route.access !== 'public') {
    const verdict = await authorize(headers.authorization, route.access, { method, cookie: headers.cookie, csrf: headers['x-csrf-token'] });
    if (!verdict.allow) {
      return errorResponse(new AppError(verdict.status === 401 ? 'UnauthorizedError' : 'ForbiddenError', verdict.reason));
    }
    if (verdict.caller.kind !== 'service') {
      const wait = keyRate.take(verdict.caller.kind === 'guild' ? verdict.caller.keyId : dashboardUsageKeyId(verdict.caller.userId));
      if (wait > 0) {
        return errorResponse(
          new AppError('RateLimitedError', guildKeyThrottledReason(keyRate.rate, keyRate.burst), { headers: { 'Retry-After': String(wait) } }),
        );
      }
    }
    authorizer = contextOf(verdict.caller);
  }

  const requestId = randomUUID();
  const event = {
    resource: route.path,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders: {},
    queryStringParameters: queryOf(url),
    multiValueQueryStringParameters: null,
    pathParameters: Object.keys(match.pathParameters).length ? match.pathParameters : null,
    stageVariables: null,
    body: body === '' ? null : body,
    isBase64Encoded: false,
    requestContext: {
      requestId,
      // API Gateway's operation name, which CDK sets to the route's id (the request's log line names it).
      operationName: route.id,
      stage: 'v1',
      resourcePath: route.path,
      httpMethod: method,
      path: url.pathname,
      authorizer,
    },
  } as unknown as APIGatewayProxyEvent;

  const handler = await loadHandler(route);
  const result = await handler(event, lambdaContext(route.id));
  handlerAnswers.add(result);
  return result;
}

/** Answers a route's handler gave: the handler logged the request itself. */
const handlerAnswers = new WeakSet<APIGatewayProxyResult>();

/** Local mode's API server; `stop` waits (bounded) for the handlers still running, so none outlives the table. */
export interface ApiServer extends Server {
  stop(): Promise<void>;
}

/** An HTTP server answering every request through {@link handleRequest}; never a bare 500. */
export function createApiServer(options: ApiServerOptions, routes: readonly Route[] = allRoutes): ApiServer {
  const keyRate = new KeyRate(options.guildKeyRate);
  const handling = new InFlight();
  const server = createServer((req, res) => {
    const started = performance.now();
    handling
      .track(handleRequest(req, routes, keyRate))
      .then((result) => {
        // What API Gateway answers itself (no such route, 405, the authorizer's 401 and 403, a guild key's 429, 413, 414) is logged here.
        if (!handlerAnswers.has(result)) {
          log('info', 'request', {
            route: 'gateway',
            method: req.method,
            path: (req.url ?? '/').split('?', 1)[0]!.slice(0, 200),
            status: result.statusCode,
            duration_ms: Math.round(performance.now() - started),
          });
        }
        return send(req, res, result);
      })
      .catch((error: unknown) => {
        console.error(JSON.stringify({ level: 'error', msg: 'local server failure', error: error instanceof Error ? error.stack : String(error) }));
        if (res.headersSent) return void res.destroy();
        send(req, res, errorResponse(new AppError('InternalServerError', 'Something unexpected went wrong in local mode; see its log.'))).catch(() =>
          res.destroy(),
        );
      });
  });
  // What Node's parser refuses before any handler still answers in the envelope.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? refuse(
            431,
            'RequestHeaderFieldsTooLarge',
            'Request Header Fields Too Large! The request line and headers are over the 16 KiB accepted; send a shorter URL or fewer headers.',
          )
        : refuse(400, 'BadRequestError', 'Bad Request! The request is not valid HTTP/1.1.');
    socket.end(answer);
  });
  return Object.assign(server, {
    async stop() {
      server.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), handling.settle(10_000)]);
    },
  });
}
