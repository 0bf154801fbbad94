/**
 * Marks a top-level declaration that evaluates something (a Zod schema, a
 * table built by calls) as one a bundle may leave out where nothing reads it:
 * `export const Tag = /* @__PURE__ *\/ built(() => z.object({ ... }))`.
 *
 * esbuild drops an unused declaration only when evaluating it has no side
 * effects. It cannot know that of a call into another file (building a
 * schema), and a `@__PURE__` call is still kept for its arguments' calls; an
 * arrow function argument has none. So each such declaration of a module's
 * schema, route or basics file is one marked call of this, and a function's
 * bundle carries (and its cold start builds) only the schemas it reads.
 * Always write the `@__PURE__` comment before it: without it the mark does
 * nothing. Only for values whose building has no effect beyond the value.
 */
export function built<T>(make: () => T): T {
  return make();
}
