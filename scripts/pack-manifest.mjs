// A workspace package's manifest as its tarball carries it. In the repository the `source`
// export condition points at `src/*.ts` (tests and tsx run the sources); a tarball ships only
// `dist`, so its manifest must not name what it does not carry. `scripts/pack.mjs` applies it to
// a copy of each package.
import { pathToFileURL } from 'node:url';

/**
 * The manifest a tarball carries: no `source` conditions, no pack-time scripts, and each
 * `@toolhost/*` dependency named as its sibling tarball (`versions`: package directory name to
 * the version it is packed at).
 */
export function forTarball(manifest, versions) {
  const scripts = { ...manifest.scripts };
  delete scripts.prepack;
  delete scripts.postpack;
  const out = {
    ...manifest,
    exports: withoutSource(manifest.exports),
    ...siblingSpecs(manifest, 'dependencies', versions),
    ...siblingSpecs(manifest, 'optionalDependencies', versions),
    ...siblingSpecs(manifest, 'peerDependencies', versions),
  };
  if (Object.keys(scripts).length === 0) delete out.scripts;
  else out.scripts = scripts;
  return out;
}

// The packages are not on the registry: a `^0.1.0` spec sends npm there for the name (npm
// prefetches a dependency it has not placed yet, even when a tarball in the same install provides
// it). A `file:` spec in a tarball's manifest resolves from the tarball's own directory, so each
// package names its sibling in the pack destination: the set installs without the registry, and
// one tarball brings its @toolhost/* dependencies along. Optional peers too: npm still looks one
// up (and installs none); the user's own install of that tarball satisfies the spec.
function siblingSpecs(manifest, field, versions) {
  const specs = manifest[field];
  if (specs === undefined) return {};
  const out = {};
  for (const [name, spec] of Object.entries(specs)) {
    const sibling = /^@toolhost\/([a-z0-9-]+)$/.exec(name)?.[1];
    if (sibling === undefined) {
      out[name] = spec;
      continue;
    }
    const version = versions.get(sibling);
    if (version === undefined) throw new Error(`${manifest.name} depends on unpacked ${name}`);
    out[name] = `file:./toolhost-${sibling}-${version}.tgz`;
  }
  return { [field]: out };
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
