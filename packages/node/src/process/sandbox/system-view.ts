import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { HOME_CREDENTIAL_STORES } from '../../fs/floor.js';

/** How the sandbox shows the host's system directories, computed once per process. */
export interface SystemView {
  /** `/bin`, `/sbin`, `/lib*`: a symlink into `/usr` on merged-usr systems, else a directory. */
  readonly links: readonly { readonly path: string; readonly target: string }[];
  readonly directories: readonly string[];
  /** Secrets under `/etc`: every entry only its owner may read, and known world-readable ones. */
  readonly etcMasks: readonly { readonly path: string; readonly kind: 'file' | 'directory' }[];
}

const TOP_LEVEL = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

// World-readable by convention, yet they routinely hold registry or proxy credentials.
const ETC_CREDENTIAL_FILES = ['/etc/npmrc', '/etc/pip.conf', '/etc/netrc', '/etc/.git-credentials'];

// `/etc` is large on some hosts; the walk stops descending past this many entries (the masks
// found so far stay, and `/etc` is still bound).
const MAX_ETC_ENTRIES = 50_000;

let cached: SystemView | undefined;

/** The system part of every sandbox's filesystem view (the same for every spawn of a process). */
export function systemView(): SystemView {
  cached ??= computeSystemView();
  return cached;
}

function computeSystemView(): SystemView {
  const links: { path: string; target: string }[] = [];
  const directories: string[] = [];
  for (const entry of TOP_LEVEL) {
    try {
      const info = lstatSync(entry);
      if (info.isSymbolicLink()) links.push({ path: entry, target: readlinkSync(entry) });
      else if (info.isDirectory()) directories.push(entry);
    } catch {
      // Absent on this distribution.
    }
  }
  return { links, directories, etcMasks: findEtcSecrets() };
}

// As root, a uid mapping does not hide a 0600 file: masking does. "Only its owner may read it"
// is the owner's own declaration that it is a secret (shadow, ssh host keys, ssl/private …).
function findEtcSecrets(): { path: string; kind: 'file' | 'directory' }[] {
  const masks: { path: string; kind: 'file' | 'directory' }[] = [];
  const pending = ['/etc'];
  let seen = 0;
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > MAX_ETC_ENTRIES) return withKnown(masks);
      const full = path.join(directory, entry.name);
      if (!entry.isFile() && !entry.isDirectory()) continue;
      let mode: number;
      let size: number;
      try {
        ({ mode, size } = lstatSync(full));
      } catch {
        continue;
      }
      const kind = entry.isDirectory() ? 'directory' : 'file';
      // An empty file (a lock like .pwd.lock) holds nothing to hide; each mount costs bwrap time.
      if (kind === 'file' && size === 0) continue;
      // A directory others may not enter or list hides what is in it.
      const hidden = kind === 'directory' ? (mode & 0o005) !== 0o005 : (mode & 0o004) === 0;
      if (hidden) masks.push({ path: full, kind });
      else if (kind === 'directory') pending.push(full);
    }
  }
  return withKnown(masks);
}

function withKnown(
  masks: { path: string; kind: 'file' | 'directory' }[],
): { path: string; kind: 'file' | 'directory' }[] {
  for (const file of ETC_CREDENTIAL_FILES) {
    try {
      if (lstatSync(file).isFile() && !masks.some((mask) => mask.path === file)) {
        masks.push({ path: file, kind: 'file' });
      }
    } catch {
      // Not present.
    }
  }
  return masks;
}

/**
 * Credential stores under a home directory, masked wherever that home is visible: the read
 * floor's own table (so `read_file` and a child process agree), plus the default state dir.
 */
export const HOME_SECRETS: readonly string[] = [...HOME_CREDENTIAL_STORES, '.toolhost'];
