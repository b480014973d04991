// Bundles the `toolhost` command (src/bin.ts and the workspace packages' sources) into dist/bundle/: a CLI start
// spent most of its time resolving, reading and compiling ~400 small ES modules. Two builds of the
// same sources, chosen at start by toolhost.js (bundle-entry.mjs):
// - toolhost.cjs, one script run with the V8 code cache made here (toolhost.cjs.cache): a start
//   then compiles nothing, when the user's Node is the one that built it;
// - esm/, ES modules where subcommands, arms and the MCP SDK stay separate chunks loaded on first
//   use (code splitting), so under any other Node a call compiles only what it runs.
// Native addons and optional peers stay external: they are resolved from node_modules at run
// time, exactly as the unbundled package resolves them.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

const common = {
  absWorkingDir: packageDir,
  // The workspace packages' TypeScript sources, as the tests run them.
  conditions: ['source'],
  tsconfig: 'tsconfig.build.json',
  bundle: true,
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
  plugins: [zodWithoutLocales],
  logLevel: 'warning',
};

await rm(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { toolhost: 'src/bin.ts' },
  outdir: `${outdir}/esm`,
  splitting: true,
  format: 'esm',
  // CommonJS dependencies call `require` for Node built-ins; an ES module has none.
  banner: {
    js: "import { createRequire as __toolhostCreateRequire } from 'node:module'; const require = __toolhostCreateRequire(import.meta.url);",
  },
});
const script = `${outdir}/toolhost.cjs`;
await build({
  ...common,
  entryPoints: ['src/bin.ts'],
  outfile: script,
  format: 'cjs',
  // One function expression, called by bundle-entry.mjs with CommonJS's arguments. Strict, as the
  // ES modules it is built from are.
  banner: {
    js: "(function (exports, require, module, __filename, __dirname, $imprt) {'use strict';var __toolhostModuleUrl=require('node:url').pathToFileURL(__filename).href;",
  },
  footer: { js: '})' },
  define: { 'import.meta.url': '__toolhostModuleUrl' },
});
await routeDynamicImports(script);
await build({
  absWorkingDir: packageDir,
  entryPoints: ['scripts/bundle-entry.mjs'],
  outfile: `${outdir}/toolhost.js`,
  // Only script-name.mjs is inlined: the rest are Node built-ins and the ES module build beside it.
  bundle: true,
  external: ['./esm/toolhost.js'],
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // The cache is V8's: usable only by the V8 (and CPU architecture) that made it, this one.
  define: {
    __TOOLHOST_BUILT_V8__: JSON.stringify(process.versions.v8),
    __TOOLHOST_BUILT_ARCH__: JSON.stringify(process.arch),
  },
  logLevel: 'warning',
});
await trainCodeCache(script, `${script}.cache`);

// A script's `import()` needs a vm callback, which code from a V8 cache loses (and Node 20 marks
// experimental): every dynamic import left in the script (an external: a native helper, an
// optional peer, a Node built-in) goes through `$imprt`, bundle-entry.mjs's own `import()`
// from the same directory. Same length as `import`, so the source map still lines up.
async function routeDynamicImports(file) {
  const code = await readFile(file, 'utf8');
  if (code.includes('$imprt(')) throw new Error('bundle-bin: the script already uses $imprt');
  const routed = code.replace(/(?<![.\w$])import\((?="[^"]+"\))/g, '$$imprt(');
  // Anything else spelled `import(` (a computed specifier, text in a string) needs a look.
  const left = routed.match(/(?<![.\w$])import\(.{0,40}/g);
  if (left !== null)
    throw new Error(`bundle-bin: unrouted import() in the script: ${left.join(', ')}`);
  await writeFile(file, routed);
}

// Runs one real `toolhost call` in a scratch root (no inherited flags or config: a cache made
// under other V8 flags would be rejected) and keeps the cache it leaves.
async function trainCodeCache(scriptFile, cacheFile) {
  const scratch = await mkdtemp(path.join(tmpdir(), 'toolhost-code-cache-'));
  try {
    const root = path.join(scratch, 'app');
    await mkdir(root);
    await writeFile(path.join(root, 'notes.txt'), 'trained\n');
    const child = spawnSync(
      process.execPath,
      [
        fileURLToPath(new URL('train-code-cache.mjs', import.meta.url)),
        scriptFile,
        cacheFile,
        'call',
        'read_file',
        '{"path":"notes.txt"}',
        '--state-dir',
        path.join(scratch, 'state'),
      ],
      { cwd: root, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: scratch } },
    );
    if (child.status !== 0 || !child.stdout.includes('trained'))
      throw new Error(`bundle-bin: training the code cache failed: ${child.stderr}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
