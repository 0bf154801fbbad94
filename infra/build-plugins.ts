import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

/**
 * What a Lambda needs of the AWS SDK's credential chain: the credentials
 * Lambda puts in the environment. The SDK's default chain
 * (`@aws-sdk/credential-provider-node`) also carries SSO, STS, ini and
 * process files, instance metadata and their clients, which a Lambda never
 * uses and which cost every bundle about a third of its load time. Every
 * client's default resolves here to `fromEnv`, exactly as the chain's first
 * step would. Applied only when the SDK is bundled.
 */
export const envCredentialsOnly: Plugin = {
  name: 'env-credentials-only',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, (args) => ({
      path: 'credential-provider-node',
      namespace: 'env-credentials-only',
      pluginData: { resolveDir: args.resolveDir },
    }));
    build.onLoad({ filter: /.*/, namespace: 'env-credentials-only' }, (args) => ({
      contents: "import { fromEnv } from '@aws-sdk/credential-provider-env';\nexport const defaultProvider = (init) => fromEnv(init);\n",
      resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
      loader: 'js',
    }));
  },
};

const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((name) => name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')).join('|')})$`);

/**
 * Node built-ins loaded the CommonJS way. An ESM `import` of a built-in
 * makes Node build a module namespace of every export, running every lazy
 * getter: `import { STATUS_CODES } from 'node:http'` loads the whole HTTP
 * client stack and undici (tens of milliseconds), where `require` of the
 * same module costs a few. Each static or dynamic `import` of a built-in
 * becomes a `require` through the bundle's `require` (see the banner in
 * build.ts); what the code can use is the same.
 */
export const builtinsAsRequire: Plugin = {
  name: 'builtins-as-require',
  setup(build) {
    build.onResolve({ filter: BUILTIN }, (args) =>
      args.kind === 'import-statement' || args.kind === 'dynamic-import' ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin-as-require' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin-as-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`node:${args.path}`)});`,
      loader: 'js',
    }));
  },
};
