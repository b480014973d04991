// Rewrites a workspace package's package.json for its tarball, and puts it back afterwards.
// In the repository the `source` export condition points at `src/*.ts` (tests and tsx run the
// sources); a tarball ships only `dist`, so its manifest must not name what it does not carry.
// Each package's `prepack` runs `strip` and its `postpack` runs `restore`, in the package's dir;
// the packaging test applies `forTarball` to a copy instead, leaving the tree alone.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const MANIFEST = 'package.json';
const KEPT = 'package.json.repo';

/** The manifest a tarball carries: no `source` conditions, no pack-time scripts. */
export function forTarball(manifest) {
  const scripts = { ...manifest.scripts };
  delete scripts.prepack;
  delete scripts.postpack;
  const out = { ...manifest, exports: withoutSource(manifest.exports) };
  if (Object.keys(scripts).length === 0) delete out.scripts;
  else out.scripts = scripts;
  return out;
}

function withoutSource(exports) {
  if (exports === null || typeof exports !== 'object' || Array.isArray(exports)) return exports;
  const out = {};
  for (const [key, value] of Object.entries(exports)) {
    if (key === 'source') continue;
    out[key] = withoutSource(value);
  }
  return out;
}

function main(mode) {
  if (mode === 'strip') {
    if (existsSync(KEPT)) throw new Error(`${KEPT} exists: an earlier pack did not restore it`);
    const text = readFileSync(MANIFEST, 'utf8');
    writeFileSync(KEPT, text);
    writeFileSync(MANIFEST, `${JSON.stringify(forTarball(JSON.parse(text)), null, 2)}\n`);
  } else if (mode === 'restore') {
    if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  } else {
    throw new Error('usage: pack-manifest.mjs strip|restore');
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv[2]);
}
