// Bundles the `toolhost` command (src/bin.ts and the workspace packages' sources) into dist/bundle/: a CLI start
// spent most of its time resolving, reading and compiling ~400 small ES modules. Subcommands,
// arms and the MCP SDK stay separate chunks loaded on first use (code splitting), so `call`
// compiles only what a call runs. Native addons and optional peers stay external: they are
// resolved from node_modules at run time, exactly as the unbundled package resolves them.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

// zod re-exports all of its ~50 message locales as `z.locales` / `core.locales`: 260 KiB of the
// 460 KiB a call would compile. toolhost's messages are its own (English, secret-free) and nothing
// in the CLI reads `z.locales`, so the bundle's namespace holds only the English one zod installs
// by default.
const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'zod-locales', pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${packageDir}dist/bundle`;

await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: packageDir,
  entryPoints: { toolhost: 'src/bin.ts' },
  // The workspace packages' TypeScript sources, as the tests run them.
  conditions: ['source'],
  tsconfig: 'tsconfig.build.json',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  // Error classes are public API narrowed by name; minified names would change them.
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  external: [
    'better-sqlite3',
    'pg',
    '@toolhost/fs-at',
    '@toolhost/pid-namespace',
    '@toolhost/sandbox-net',
  ],
  // CommonJS dependencies call `require` for Node built-ins; an ES module has none.
  banner: {
    js: "import { createRequire as __toolhostCreateRequire } from 'node:module'; const require = __toolhostCreateRequire(import.meta.url);",
  },
  plugins: [zodWithoutLocales],
  logLevel: 'warning',
});
