// A workspace package's manifest as its tarball carries it. In the repository the `source`
// export condition points at `src/*.ts` (tests and tsx run the sources); a tarball ships only
// `dist`, so its manifest must not name what it does not carry. `scripts/pack.mjs` applies it to
// a copy of each package.
import { pathToFileURL } from 'node:url';

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

// A package's own `prepack`: packing in place would ship the repository's manifest (or, rewritten
// in place, leave it rewritten when the pack fails), so it refuses and names the command that
// packs a copy instead.
function main(mode) {
  if (mode !== 'refuse') throw new Error('usage: pack-manifest.mjs refuse');
  console.error(
    'toolhost: pack with `npm run pack` at the repository root (it packs a copy; the tree is never rewritten)',
  );
  process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv[2]);
}
