import type { Plugin } from 'esbuild';

/**
 * Zod's `z` namespace re-exports every locale it ships (some forty), so a
 * bundle that uses `z.object` carries all of them: over half of a handler
 * bundle. The service speaks English only; this plugin resolves Zod's locale
 * index to English alone. Measured by `npm run bench`.
 */
export const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};
