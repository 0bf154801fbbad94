/**
 * What the dashboard's routes answer: pages (`text/html`, never the JSON
 * envelope, never cached) and redirects. A failure is a page saying what to
 * do, with the failure's status.
 */
import type { AppError } from '#shared/errors.js';
import { RawBody } from '#shared/http/envelope.js';
import { messagePage } from './pages.js';

const HTML = 'text/html; charset=utf-8';
/** No page is cached or framed, and none fetches from elsewhere (behaviour §19). */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self' http: https:",
};

/** The failure pages of {@link dashboardErrorPage}, by status, as the OpenAPI document lists them. */
const FAILURES = {
  400: 'The page saying the sign-in link was wrong, replayed or expired: sign in again',
  403: 'The page saying the member may not do this here (no Manage Server or Administrator, the bot absent, a missing CSRF token)',
  404: 'The page saying there is no such page',
  500: 'The page saying something went wrong',
  502: 'The page saying the platform did not answer',
  503: 'The page saying to try again shortly',
};

export const pageAnswer = (description: string) => ({ contentType: HTML, description, failures: FAILURES });

export const page = (html: string, status = 200, headers: Record<string, string> = {}) => new RawBody(HTML, html, { ...PAGE_HEADERS, ...headers }, status);

/** A redirect; `cookies` are `Set-Cookie` values (API Gateway's proxy answer carries several through `multiValueHeaders` in AWS: one is enough here). */
export const redirect = (location: string, status: 302 | 303 = 302, cookie?: string) =>
  new RawBody(HTML, '', { ...PAGE_HEADERS, location, ...(cookie ? { 'set-cookie': cookie } : {}) }, status);

const TITLES: Record<number, string> = {
  400: 'This sign-in did not work',
  403: 'Not allowed here',
  404: 'No such page',
  502: 'The platform did not answer',
  503: 'Try again shortly',
};

/** The page of a failure (the endpoint factory's `errorPage`). */
export function dashboardErrorPage(error: AppError): RawBody {
  const title = TITLES[error.status] ?? 'Something went wrong';
  return page(messagePage(title, error.message), error.status);
}
