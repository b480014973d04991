// Build step, run as a child by bundle-bin.mjs: runs the script bundle once on a real `toolhost
// call` exactly as bundle-entry.mjs does, then writes V8's code cache for it. Made after the run,
// the cache holds the bytecode of every function the call compiled, not only the top level.
// Usage: node train-code-cache.mjs <toolhost.cjs> <cache out> <toolhost argv…>
import { writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const [filename, cacheFile, ...argv] = process.argv.slice(2);
if (filename === undefined || cacheFile === undefined)
  throw new Error('train-code-cache: missing arguments');
const script = new vm.Script(readFileSync(filename, 'utf8'), {
  filename,
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
