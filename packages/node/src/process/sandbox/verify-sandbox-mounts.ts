import { accessSync, closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import type { MountExpectation } from './sandbox-mount-plan.js';

const { O_NOFOLLOW, O_DIRECTORY, W_OK } = constants;
// Node exposes no O_PATH; Linux's value (the same on every architecture Node runs on).
const O_PATH = 0o10000000;

/** One line of `/proc/<pid>/mountinfo`: where a mount sits, how, and of what kind. */
export interface MountInfoEntry {
  readonly mountPoint: string;
  readonly readOnly: boolean;
  readonly fsType: string;
}

/**
 * Checks a started, still blocked sandbox against its plan, from the host: every expected mount
 * must sit exactly at its destination in the sandbox's own mount table (a destination bwrap
 * reached through a swapped symlink shows there under the path it really landed on), be the top
 * mount there, be read-only exactly when planned, and show — walked from the sandbox's root
 * without following any symlink — the very object the host pinned. `undefined`: all hold; else
 * which check failed (no path in it: the caller's error names none).
 */
export function verifySandboxMounts(
  pid: number,
  expected: readonly MountExpectation[],
): string | undefined {
  if (expected.length === 0) return undefined;
  const top = new Map<string, MountInfoEntry>();
  for (const entry of parseMountInfo(readFileSync(`/proc/${pid}/mountinfo`, 'latin1'))) {
    top.set(entry.mountPoint, entry);
  }
  const rootFd = openSync(`/proc/${pid}/root`, O_PATH | O_DIRECTORY);
  try {
    for (const expectation of expected) {
      const mount = top.get(expectation.dest);
      if (mount === undefined) return 'mount_missing';
      if (expectation.kind === 'tmpfs') {
        if (mount.fsType !== 'tmpfs') return 'mount_covered';
        continue;
      }
      if (mount.readOnly !== expectation.readOnly) return 'mount_writability';
      const fd = walkNoFollow(rootFd, expectation.dest);
      if (fd === undefined) return 'mount_path';
      try {
        const info = fstatSync(fd, { bigint: true });
        const { dev, ino } = expectation.identity;
        if (info.dev !== dev || info.ino !== ino) return 'mount_identity';
        // The object through its own mount: the write check the command itself would meet.
        if (expectation.readOnly && writable(fd)) return 'mount_writability';
      } finally {
        closeSync(fd);
      }
    }
    return undefined;
  } finally {
    closeSync(rootFd);
  }
}

/** Parses mountinfo (proc(5)): octal escapes in a path (`\040`, `\012`) read back as bytes. */
export function parseMountInfo(text: string): MountInfoEntry[] {
  const entries: MountInfoEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const separator = fields.indexOf('-');
    const mountPoint = fields[4];
    const options = fields[5];
    const fsType = fields[separator + 1];
    if (separator < 6 || mountPoint === undefined || options === undefined || !fsType) continue;
    entries.push({
      mountPoint: Buffer.from(unescapeOctal(mountPoint), 'latin1').toString('utf8'),
      readOnly: options.split(',').includes('ro'),
      fsType,
    });
  }
  return entries;
}

function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

// Each component opened below the last as an O_PATH descriptor without following a symlink; a
// symlink, or a non-directory on the way, is a path the plan did not make.
function walkNoFollow(rootFd: number, target: string): number | undefined {
  const names = target.split('/').filter((name) => name !== '');
  let current = rootFd;
  try {
    for (const [index, name] of names.entries()) {
      const next = openSync(`/proc/self/fd/${current}/${name}`, O_PATH | O_NOFOLLOW);
      if (current !== rootFd) closeSync(current);
      current = next;
      const info = fstatSync(current);
      if (info.isSymbolicLink()) return closeAndFail(current, rootFd);
      if (index < names.length - 1 && !info.isDirectory()) return closeAndFail(current, rootFd);
    }
    return current === rootFd ? undefined : current;
  } catch {
    if (current !== rootFd) closeSync(current);
    return undefined;
  }
}

function closeAndFail(fd: number, rootFd: number): undefined {
  if (fd !== rootFd) closeSync(fd);
  return undefined;
}

function writable(fd: number): boolean {
  try {
    accessSync(`/proc/self/fd/${fd}`, W_OK);
    return true;
  } catch {
    return false;
  }
}
