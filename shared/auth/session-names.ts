/**
 * The names a dashboard session travels under (behaviour §19), apart from
 * the session store so the OpenAPI document can state them without loading
 * it.
 */

/** The session cookie's name. */
export const SESSION_COOKIE = 'gmms_session';
/** The header every change made with a session carries. */
export const CSRF_HEADER = 'x-csrf-token';
