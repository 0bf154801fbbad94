import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AppError, databaseFailed } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { errorField, log } from '../observe/log.js';
import { type ErrorPage, failureResponse } from './envelope.js';
import { checkBodySize } from './limits.js';

export type Mw = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

/**
 * Outermost: every failure becomes the error envelope (or, for a route that
 * answers pages, its error page). AppErrors speak for themselves; an
 * unreachable table is a 503; anything else is logged with the request ID
 * and answered as a 500 that names that ID and nothing internal.
 */
export function errorEnvelope(page?: ErrorPage): Mw {
  return {
    name: 'errorEnvelope',
    onError: (request) => {
      const error = request.error;
      if (error instanceof AppError) {
        request.response = failureResponse(error, page);
        return;
      }
      if (isDatabaseUnavailable(error)) {
        log('error', 'database unavailable', { request_id: request.context.awsRequestId, error: errorField(error) });
        request.response = failureResponse(databaseFailed('The table could not be reached after retries; try again shortly.'), page);
        return;
      }
      log('error', 'unexpected error', { request_id: request.context.awsRequestId, error: error instanceof Error ? error.stack : String(error) });
      request.response = failureResponse(
        new AppError('InternalServerError', `Something unexpected went wrong; it was logged with request ID ${request.context.awsRequestId}.`),
        page,
      );
    },
  };
}

/** 413 before anything reads the body. */
export function bodyLimit(): Mw {
  return {
    name: 'bodyLimit',
    before: (request) => checkBodySize(request.event.body, request.event.isBase64Encoded),
  };
}
