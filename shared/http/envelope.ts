import type { APIGatewayProxyResult } from 'aws-lambda';
import { AppError } from '../errors.js';
import { stringifyJson } from './json.js';

/** The envelopes of behaviour §3.1, as API Gateway proxy results. */

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function successResponse(data: object, status = 200): APIGatewayProxyResult {
  return { statusCode: status, headers: { ...JSON_HEADERS }, body: stringifyJson({ success: true, data }) };
}

/** The error envelope's body for an AppError: `{success, data, error: {code, name, message}}`. */
export function errorBody(error: AppError): { success: false; data: object; error: { code: number; name: string; message: string } } {
  return { success: false, data: {}, error: { code: error.code, name: error.errorName, message: error.message } };
}

export function errorResponse(error: AppError): APIGatewayProxyResult {
  return { statusCode: error.status, headers: { ...JSON_HEADERS, ...error.headers }, body: stringifyJson(errorBody(error)) };
}

/**
 * How a route that answers pages (not the envelope) shows a failure: the
 * page for an error, with the status it answers. Its headers are kept, and
 * the error's own (`Retry-After`) are added.
 */
export type ErrorPage = (error: AppError) => RawBody;

/** A failure as the route answers it: its error page when it has one, else the error envelope. */
export function failureResponse(error: AppError, page?: ErrorPage): APIGatewayProxyResult {
  if (!page) return errorResponse(error);
  const answer = page(error).response();
  return { ...answer, headers: { ...answer.headers, ...error.headers } };
}

/** 404 for a path no route has. */
export const noSuchRoute = (method: string, path: string) =>
  new AppError('NotFoundError', `No route ${method} ${path}; see /openapi.json for the routes this service has.`);

/** 405 for a known path with another method; `allowed` lists the methods it has. */
export const methodNotAllowed = (method: string, path: string, allowed: string[]) =>
  new AppError('MethodNotAllowedError', `${path} does not take ${method}; it takes ${allowed.join(', ')}.`, {
    headers: { Allow: allowed.join(', ') },
  });

/**
 * A body that is not the JSON envelope: the OpenAPI document and the docs
 * page. A use case returns one; the factory sends it as it is.
 */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: string,
    readonly headers: Record<string, string> = {},
    /** A page may answer with an error status of its own (the verification page's 403). */
    readonly statusCode = 200,
  ) {}

  response(): APIGatewayProxyResult {
    return { statusCode: this.statusCode, headers: { 'content-type': this.contentType, ...this.headers }, body: this.body };
  }

  /** An answer already made (a kept idempotency answer a use case replays), as the endpoint sends it again. */
  static of(answer: APIGatewayProxyResult): RawBody {
    const { 'content-type': type = 'application/json', ...headers } = Object.fromEntries(
      Object.entries(answer.headers ?? {}).map(([name, value]) => [name, String(value)]),
    );
    return new RawBody(type, answer.body, headers, answer.statusCode);
  }
}
