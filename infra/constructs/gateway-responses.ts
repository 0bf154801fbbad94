import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { INTERNAL_REASON, UNAUTHORIZED_REASON, USAGE_KEY_PENDING_REASON, throttledReason } from '#shared/auth/messages.js';

/**
 * The error envelope of behaviour §3.1 as a mapping template. Messages are
 * static text (JSON-safe by construction) apart from `$context` variables,
 * which API Gateway substitutes in gateway responses and mock integrations.
 */
export function envelopeTemplate(code: number, name: string, message: string): string {
  return JSON.stringify({ success: false, data: {}, error: { code, name, message } });
}

/** One gateway response: API Gateway's own errors, rewritten into the envelope. */
export interface ErrorResponse {
  type: apigw.ResponseType;
  status: number;
  name: string;
  message: string;
  headers?: Record<string, string>;
}

/** Answers of API Gateway itself (before any function runs), in behaviour §3.2 terms. */
export function errorResponses(throttle: { rateLimit: number; burstLimit: number; guildKeyRate: number; guildKeyBurst: number }): ErrorResponse[] {
  const notFound = 'Not Found! No route matches this path; GET /v1/openapi.json lists every route.';
  const throttled = `Too Many Requests! ${throttledReason(throttle)}`;
  const retryAfter = { 'Retry-After': "'1'" };
  return [
    // The authorizer threw 'Unauthorized', or the Authorization header was missing.
    { type: apigw.ResponseType.UNAUTHORIZED, status: 401, name: 'UnauthorizedError', message: `Unauthorized! ${UNAUTHORIZED_REASON}` },
    // The authorizer denied: a guild API key on an internal operation.
    { type: apigw.ResponseType.ACCESS_DENIED, status: 403, name: 'ForbiddenError', message: `Forbidden! ${INTERNAL_REASON}` },
    // API Gateway's answer for a path without a resource, and for a method a path lacks when no ANY
    // method catches it. Paths with methods have the 405 ANY mock, so this is an unknown path.
    { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, name: 'NotFoundError', message: notFound },
    { type: apigw.ResponseType.RESOURCE_NOT_FOUND, status: 404, name: 'NotFoundError', message: notFound },
    { type: apigw.ResponseType.THROTTLED, status: 429, name: 'RateLimitedError', message: throttled, headers: retryAfter },
    { type: apigw.ResponseType.QUOTA_EXCEEDED, status: 429, name: 'RateLimitedError', message: throttled, headers: retryAfter },
    // The usage-plan key the authorizer named is not in its plan yet: a guild key registered a moment ago.
    {
      type: apigw.ResponseType.INVALID_API_KEY,
      status: 429,
      name: 'RateLimitedError',
      message: `Too Many Requests! ${USAGE_KEY_PENDING_REASON}`,
      headers: retryAfter,
    },
    // API Gateway's own ceiling (10 MB); the 64 KiB limit is enforced by the functions with the same answer.
    {
      type: apigw.ResponseType.REQUEST_TOO_LARGE,
      status: 413,
      name: 'PayloadTooLargeError',
      message: 'Payload Too Large! The request body must be at most 64 KiB.',
    },
    // Anything else API Gateway rejects. The status is pinned so that `code` always equals it
    // (a template cannot read the status it answers with).
    {
      type: apigw.ResponseType.DEFAULT_4XX,
      status: 400,
      name: 'BadRequestError',
      message: 'Bad Request! The gateway rejected the request before it reached the service; check the method, headers and body.',
    },
    {
      type: apigw.ResponseType.DEFAULT_5XX,
      status: 500,
      name: 'InternalServerError',
      message: 'Internal Server Error! The gateway could not complete the request (request $context.requestId); retry later.',
    },
  ];
}

/** Adds the gateway responses to the API (they live in the API's stack). */
export function addErrorResponses(api: apigw.RestApi, responses: readonly ErrorResponse[]): apigw.GatewayResponse[] {
  return responses.map((r) =>
    api.addGatewayResponse(r.type.responseType, {
      type: r.type,
      statusCode: String(r.status),
      // The template's key makes the answer application/json.
      responseHeaders: r.headers,
      templates: { 'application/json': envelopeTemplate(r.status, r.name, r.message) },
    }),
  );
}
