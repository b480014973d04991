// Build step, run as a child by bundle-bin.mjs: runs the script bundle once on a real `toolhost
// call` exactly as bundle-entry.mjs does, then writes V8's code cache for it. Made after the run,
// the cache holds the bytecode of every function the call compiled, not only the top level.
// Usage: node train-code-cache.mjs <toolhost.cjs> <cache out> <toolhost argv…>
import { writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

import { SCRIPT_NAME } from './script-name.mjs';

const [filename, cacheFile, ...argv] = process.argv.slice(2);
if (filename === undefined || cacheFile === undefined)
  throw new Error('train-code-cache: missing arguments');
// V8 keeps a script's name in its code cache: the name is the package-relative one bundle-entry.mjs
// gives, never this builder's path (which would ship inside the package).
const script = new vm.Script(readFileSync(filename, 'utf8'), {
  filename: SCRIPT_NAME,
});
process.argv = [process.argv[0] ?? process.execPath, filename, ...argv];
// The command ends with process.exit: the cache is taken then, with everything it ran compiled.
process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
const module = { exports: {} };
script.runInThisContext()(
  module.exports,
  createRequire(filename),
  module,
  filename,
  path.dirname(filename),
  (specifier) => import(specifier),
);
