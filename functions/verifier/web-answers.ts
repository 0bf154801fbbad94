/**
 * What the verification web routes answer: always a page (`text/html`),
 * never the JSON envelope, kept out of caches and referrers since the URL
 * carries the one-time token. Anything wrong with the link itself (a
 * malformed, unknown, expired, used or replaced one) is the 403 page; other
 * failures keep their status with a page saying what to do.
 */
import type { AppError } from '#shared/errors.js';
import { RawBody } from '#shared/http/envelope.js';
import { problemPage, refusedPage } from './page.js';

const HTML = 'text/html; charset=utf-8';
const PRIVATE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** The failure pages of {@link webErrorPage}, by status. */
const FAILURES = {
  403: 'The page saying the link does not work: wrong, malformed, unknown, expired, used, replaced by a newer prompt, or issued before the verifier type changed',
  405: 'The page saying the link is opened with GET and the form posts with POST (the Allow header lists both)',
  409: 'The page saying verification is switched off in the server',
  413: 'The page saying the request was too large',
  500: 'The page saying something went wrong',
  502: 'The page saying a role could not be granted (not verified)',
  503: 'The page saying to try again shortly',
};

/** How the routes declare their answers in the OpenAPI document. */
export const webAnswer = (description: string) => ({ contentType: HTML, description, failures: FAILURES });

export const page = (html: string, status = 200) => new RawBody(HTML, html, PRIVATE, status);

/** The 403 page: the link does not work. */
export const refused = () => page(refusedPage(), 403);

/** The page of a failure (the endpoint factory's `errorPage`). */
export function webErrorPage(error: AppError): RawBody {
  // The path and the query are the link: input that fails a check is a wrong link.
  if (error.status === 400 || error.status === 404 || error.status === 422) return refused();
  if (error.status === 409)
    return page(
      problemPage('Verification is switched off', error.message, 'Ask the moderators of the server to turn it on again, then open the link again.'),
      error.status,
    );
  if (error.status === 405)
    return page(
      problemPage('This page cannot do that', error.message, 'Open the verification link from the server in a browser and press Verify.'),
      error.status,
    );
  if (error.status === 413)
    return page(problemPage('The request was too large', error.message, 'Open the link from the server again and press Verify.'), error.status);
  if (error.status === 502)
    return page(
      problemPage('You are not verified yet', error.message, 'Try again in a moment; if it keeps failing, tell the moderators of the server.'),
      error.status,
    );
  return page(problemPage('Something went wrong', error.message, 'You are not verified yet. Try again in a moment with the same link.'), error.status);
}
