#!/usr/bin/env node
// The published `toolhost` binary. Node 20 has no compile cache for ES modules, and compiling the
// ~600 KiB a call runs was most of a start: the command is also bundled as one script, run here
// with the V8 code cache made for it at build time. A cache from another V8 (the user's Node is
// not the builder's) would be rejected after a full compile, so that case loads the code-split
// ES module build instead, which compiles only what a call needs. Nothing is written at run time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { debuglog } from 'node:util';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

import { SCRIPT_NAME } from './script-name.mjs';

/* global __TOOLHOST_BUILT_V8__, __TOOLHOST_BUILT_ARCH__ -- replaced by bundle-bin.mjs */
const debugLog = debuglog('toolhost');

if (process.versions.v8 === __TOOLHOST_BUILT_V8__ && process.arch === __TOOLHOST_BUILT_ARCH__) {
  const filename = fileURLToPath(new URL('toolhost.cjs', import.meta.url));
  let cachedData;
  try {
    cachedData = readFileSync(`${filename}.cache`);
  } catch (error) {
    // A missing cache only costs the compile; any other failure is a broken install.
    if (error?.code !== 'ENOENT') throw error;
  }
  // The file is one function expression (bundle-bin.mjs wraps it), so the cache matches its bytes.
  // The name the cache was made under (train-code-cache.mjs): a cache holds its script's name, so
  // a path here would have shipped the builder's; stack frames read `toolhost.cjs:line:col`.
  const script = new vm.Script(readFileSync(filename, 'utf8'), {
    filename: SCRIPT_NAME,
    cachedData,
  });
  // V8 checks the cache against the source and its flags; a rejected one means it compiled.
  debugLog(
    'code cache %s',
    cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted',
  );
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(filename),
    module,
    filename,
    fileURLToPath(new URL('.', import.meta.url)),
    // The script's dynamic imports (bundle-bin.mjs routes them here), resolved from this directory.
    (specifier) => import(specifier),
  );
} else {
  debugLog('code cache not built for this Node: loading the ES module build');
  await import('./esm/toolhost.js');
}
