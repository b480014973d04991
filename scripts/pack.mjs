// `npm run pack [-- <destination>]`: every @toolhost/* package as the tarball a user installs,
// in dependency order, into <destination> (default `toolhost-packs/` at the repository root,
// made if missing). Each package is packed from a copy whose manifest is the tarball's
// (`forTarball`), so the tree's own package.json files are never rewritten: a failed or
// interrupted pack leaves nothing to restore, and tests resolving through them meanwhile are
// undisturbed.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { forTarball } from './pack-manifest.mjs';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/** Workspace packages, each after everything it depends on. */
export const PACK_ORDER = Object.freeze([
  'core',
  'fs-at',
  'pid-namespace',
  'sandbox-net',
  'node',
  'otel',
  'cli',
  'ai-sdk',
  'openai-agents',
  'anthropic',
  'restate',
]);

// Native packages compile at install; the rest ship their build.
const NATIVE = new Set(['fs-at', 'pid-namespace', 'sandbox-net']);

/** Packs every package into `destination`; returns `{ name, tarball }` in pack order. */
export function packAll(destination) {
  const target = path.resolve(destination);
  for (const name of PACK_ORDER) {
    if (!NATIVE.has(name) && !existsSync(path.join(REPO, 'packages', name, 'dist', 'index.js'))) {
      throw new Error(`packages/${name} is not built: run npm run build first`);
    }
  }
  mkdirSync(target, { recursive: true });
  const versions = new Map(PACK_ORDER.map((name) => [name, manifestOf(name).version]));
  const copies = mkdtempSync(path.join(tmpdir(), 'toolhost-pack-'));
  try {
    return PACK_ORDER.map((name) => ({ name, tarball: packCopy(name, versions, copies, target) }));
  } finally {
    rmSync(copies, { recursive: true, force: true });
  }
}

function manifestOf(name) {
  return JSON.parse(readFileSync(path.join(REPO, 'packages', name, 'package.json'), 'utf8'));
}

function packCopy(name, versions, copies, target) {
  const copy = path.join(copies, name);
  cpSync(path.join(REPO, 'packages', name), copy, {
    recursive: true,
    // Installed dependencies and native build output are the packer's machine, not the package.
    filter: (source) => !/[/\\](node_modules|build)$/.test(source),
  });
  const manifestPath = path.join(copy, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  writeFileSync(manifestPath, `${JSON.stringify(forTarball(manifest, versions), null, 2)}\n`);
  const report = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', target],
    { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [{ filename }] = JSON.parse(report);
  return path.join(target, filename);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const destination = process.argv[2] ?? path.join(REPO, 'toolhost-packs');
  try {
    for (const { tarball } of packAll(destination)) console.log(tarball);
  } catch (error) {
    console.error(`pack: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
