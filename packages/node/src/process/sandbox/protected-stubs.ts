import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  rmdirSync,
  unlinkSync,
} from 'node:fs';
import { constants } from 'node:fs';

/** A fixed protected name that did not exist: made for the run, so it can be mounted over. */
interface Stub {
  readonly kind: 'file' | 'directory';
  readonly ino: bigint;
  users: number;
}

const stubs = new Map<string, Stub>();

/**
 * Makes sure each protected fixed name exists so bwrap can mount a read-only view over it (a
 * mount needs a mount point, and a missing name could otherwise be created inside). A name this
 * process had to create is a stub, shared by concurrent runs and removed by `release` once the
 * last one ends — empty and still ours — so nothing is left behind in the user's workspace.
 */
export function ensureProtectedNames(
  names: readonly { readonly path: string; readonly kind: 'file' | 'directory' }[],
): { readonly release: () => void } {
  const held: string[] = [];
  for (const { path: target, kind } of names) {
    const existing = stubs.get(target);
    if (existing !== undefined) {
      existing.users += 1;
      held.push(target);
      continue;
    }
    if (exists(target)) continue;
    const ino = create(target, kind);
    if (ino === undefined) continue;
    stubs.set(target, { kind, ino, users: 1 });
    held.push(target);
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      for (const target of held) releaseStub(target);
    },
  };
}

function exists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

// O_EXCL / mkdir: if anything appeared meanwhile it is not ours, and it is not removed later.
function create(target: string, kind: 'file' | 'directory'): bigint | undefined {
  try {
    if (kind === 'directory') {
      mkdirSync(target, { mode: 0o555 });
      return lstatSync(target, { bigint: true }).ino;
    }
    const fd = openSync(
      target,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
      0o444,
    );
    try {
      return fstatSync(fd, { bigint: true }).ino;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function releaseStub(target: string): void {
  const stub = stubs.get(target);
  if (stub === undefined) return;
  stub.users -= 1;
  if (stub.users > 0) return;
  stubs.delete(target);
  try {
    const info = lstatSync(target, { bigint: true });
    if (info.ino !== stub.ino) return;
    if (stub.kind === 'directory' && info.isDirectory()) rmdirSync(target);
    else if (stub.kind === 'file' && info.isFile() && info.size === 0n) unlinkSync(target);
  } catch {
    // Gone already, or no longer empty (then it is not ours to remove).
  }
}
