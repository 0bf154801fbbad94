/**
 * Every path the README and docs/ name is a route of the service (the route
 * table local mode, CDK and the OpenAPI document read), so a reader who
 * calls what the documentation says reaches something. A path is a code
 * span that is a path (`/modules/tags/entries`) or a method and a path
 * (`DELETE /settings`), read across line breaks; `<m>` and `{id}` stand for a
 * segment, a trailing `...` for the rest, and a path that does not start at
 * the root of the service (`/settings`) is one under `/modules/<m>`. The
 * sandbox platform's page (docs/sandbox.md) documents the sandbox's own
 * routes, not the service's, and is left out.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';

/** Paths in code spans that are not the service's: files on the machine, the platform's API (under /api/v10), the sandbox's control routes, and the API Gateway management paths operations.md names in IAM grants. */
const NOT_SERVICE_PATHS = [/^\/usr\//, /^\/api\/v10(\/|$)/, /^\/_sandbox\//, /^\/(apikeys|usageplans)(\/|$)/];
/** The page about the sandbox platform (its routes are the sandbox's). */
const SANDBOX_PAGE = 'sandbox.md';

/** The paths named in code spans of a Markdown text, outside fenced blocks. */
function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^ *```[\s\S]*?^ *```/gm, '');
  const spans = prose.split('`').filter((_, i) => i % 2 === 1);
  const paths = spans
    .map((span) => span.replace(/\s+/g, ' ').trim())
    .map((span) => /^(?:(?:GET|PUT|POST|DELETE|PATCH) )?(\/[^\s]*)$/.exec(span)?.[1])
    .filter((path): path is string => path !== undefined && !NOT_SERVICE_PATHS.some((pattern) => pattern.test(path)));
  return [...new Set(paths)];
}

const segments = (path: string) => path.split('/').slice(1);
const isPlaceholder = (segment: string) => /^(<[^>]+>|\{[^}]+\})$/.test(segment);

/** Whether `named` (segments, maybe ending in `...`) names the route path `route` from its start. */
function matches(named: string[], route: string[]): boolean {
  const open = named[named.length - 1] === '...' || named[named.length - 1]?.endsWith('...');
  const fixed = open ? named.slice(0, -1) : named;
  if (open ? route.length <= fixed.length : route.length !== fixed.length) return false;
  return fixed.every((segment, i) => isPlaceholder(segment) || isPlaceholder(route[i]!) || segment === route[i]);
}

/** Whether a path the README names is a route: from the root, under `/v1`, or under `/modules/<m>`. */
function isRoute(path: string, routePaths: readonly string[]): boolean {
  const unprefixed = path.replace(/^\/v1(?=\/|$)/, '') || '/';
  if (unprefixed === '/' && path !== '/') return true; // the stage prefix itself
  const named = segments(unprefixed.replace(/\/$/, '/')).filter((s, i, all) => s !== '' || i === all.length - 1);
  return routePaths.some((route) => {
    const parts = segments(route);
    if (matches(named, parts)) return true;
    // A module-relative path: the route under /modules/<m> from its third segment on.
    return parts[0] === 'modules' && parts.length > 2 && unprefixed !== '/' && !unprefixed.startsWith('/modules/') && matches(named, parts.slice(2));
  });
}

const docs = new URL('../../docs/', import.meta.url);
const pages = {
  'README.md': readFileSync(new URL('../../README.md', import.meta.url), 'utf8'),
  ...Object.fromEntries(
    readdirSync(docs)
      .filter((name) => name.endsWith('.md') && name !== SANDBOX_PAGE)
      .map((name) => [`docs/${name}`, readFileSync(new URL(name, docs), 'utf8')]),
  ),
};
const routePaths = routes.map((route) => route.path);

describe('the paths the README and docs/ name', () => {
  it('are read from code spans, across line breaks, with or without a method', () => {
    expect(namedPaths('Call `GET /livez`, `DELETE\n/privacy/x` and `/docs`; not `/usr/bin/x`, `npm test` or\n```\n`/in/a/block`\n```\n')).toEqual([
      '/livez',
      '/privacy/x',
      '/docs',
    ]);
  });

  it('tell a route from a path that is none', () => {
    expect(isRoute('/modules/tags/entries/{entry_id}', routePaths)).toBe(true);
    expect(isRoute('/modules/<m>/status', routePaths)).toBe(true);
    expect(isRoute('/v1/modules/polls/entries', routePaths)).toBe(true);
    expect(isRoute('/settings', routePaths)).toBe(true);
    expect(isRoute('/check/...', routePaths)).toBe(true);
    expect(isRoute('/privacy/get-user-entries', routePaths)).toBe(true);
    expect(isRoute('/privacy/user-entries', routePaths)).toBe(false);
    expect(isRoute('/modules/tags/nothing', routePaths)).toBe(false);
  });

  it('are every one a route of the service', () => {
    expect(Object.keys(pages)).toContain('docs/behaviour.md');
    const named = Object.entries(pages).flatMap(([page, text]) => namedPaths(text).map((path) => ({ page, path })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ path }) => !isRoute(path, routePaths))).toEqual([]);
  });
});
