import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { routes as allRoutes } from '../../functions/routes.js';
import { authorize } from '../../shared/auth/credentials.js';
import { AppError } from '../../shared/errors.js';
import { errorResponse, methodNotAllowed, noSuchRoute } from '../../shared/http/envelope.js';
import { MAX_BODY_BYTES, payloadTooLarge } from '../../shared/http/limits.js';
import { type Route, matchPath } from '../../shared/http/route.js';
import { loadHandler } from '../../shared/http/load-handler.js';
import { lambdaContext } from './lambda-context.js';

/**
 * Local mode's API Gateway: the same route table CDK deploys, the same
 * checks in the same order (404/405, 413, the authorizer's 401/403), then the
 * route's handler with a REST proxy event.
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

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  res.writeHead(result.statusCode, result.headers as Record<string, string>);
  res.end(result.body);
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

export async function handleRequest(req: IncomingMessage, routes: readonly Route[] = allRoutes): Promise<APIGatewayProxyResult> {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://local');
  // `/v1/...` is the deployed stage; both spellings reach the same routes.
  const path = url.pathname.replace(/^\/v1(?=\/|$)/, '') || '/';

  const match = matchPath(routes, path);
  if (!match) return errorResponse(noSuchRoute(method, path));
  const route = match.routes.find((r) => r.method === method);
  if (!route) return errorResponse(methodNotAllowed(method, match.template, match.routes.map((r) => r.method)));

  let body: string;
  try {
    body = await readBody(req);
  } catch (error) {
    return errorResponse(error as AppError);
  }

  const headers = headersOf(req);
  let authorizer: Record<string, string> | null = null;
  if (route.access !== 'public') {
    const verdict = await authorize(headers.authorization, route.access);
    if (!verdict.allow) {
      return errorResponse(new AppError(verdict.status === 401 ? 'UnauthorizedError' : 'ForbiddenError', verdict.reason));
    }
    authorizer =
      verdict.caller.kind === 'service'
        ? { caller: 'service' }
        : { caller: 'guild', guild_id: verdict.caller.guildId, key_id: verdict.caller.keyId };
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
      stage: 'v1',
      resourcePath: route.path,
      httpMethod: method,
      path: url.pathname,
      authorizer,
    },
  } as unknown as APIGatewayProxyEvent;

  const handler = await loadHandler(route);
  return handler(event, lambdaContext(route.id));
}

/** An HTTP server answering every request through {@link handleRequest}; never a bare 500. */
export function createApiServer(routes: readonly Route[] = allRoutes): Server {
  return createServer((req, res) => {
    handleRequest(req, routes)
      .then((result) => send(res, result))
      .catch((error: unknown) => {
        console.error(JSON.stringify({ level: 'error', msg: 'local server failure', error: error instanceof Error ? error.stack : String(error) }));
        send(res, errorResponse(new AppError('InternalServerError', 'Something unexpected went wrong in local mode; see its log.')));
      });
  });
}
