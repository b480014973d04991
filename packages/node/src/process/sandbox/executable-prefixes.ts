import { closeSync, constants, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isUnder, isUnderAny, resolveSandboxPath } from './resolve-sandbox-path.js';

/** Directories the sandbox shows anyway: an executable there needs no extra bind. */
const ALWAYS_VISIBLE = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc'];

/**
 * The installation prefixes an executable needs to run: the directory above its `bin` (e.g.
 * `/usr/local` for `/usr/local/bin/tool`, an nvm prefix for `node`), for the directory it is
 * named in and for its real location, and the same for a `#!` interpreter (`#!/usr/bin/env node`
 * looks `node` up on `searchPath`).
 *
 * Every path here may be the workspace's words (a script's `#!` line, an executable under the
 * workspace, a PATH entry), so none is trusted as text: each is resolved on the host by
 * `resolveSandboxPath` (`..` from the real directory, no symlink the sandbox can write followed)
 * and a prefix is only ever a real path. A prefix that would expose `/`, the home directory or a
 * parent of a root shrinks to the executable's own directory; one inside an area the sandbox
 * writes is not needed (it is in the view already); an interpreter that is not an existing
 * executable regular file names no prefix at all.
 */
export function executablePrefixes(input: {
  readonly file: string;
  readonly searchPath: string;
  readonly home: string | undefined;
  readonly roots: readonly string[];
  /** Real paths the sandbox can write: never followed through, never a prefix. */
  readonly writable: readonly string[];
}): string[] {
  const prefixes = new Set<string>();
  const add = (file: string): void => {
    // Only for a file that is there: a `#!` line naming a missing one shows nothing.
    const real = resolveSandboxPath(file, input.writable, { stopInside: true });
    if (real.kind !== 'real' || !isExecutableFile(real.path)) return;
    addPrefixOf(path.dirname(real.path), input, prefixes);
    // The directory as named too: the command is started by this spelling inside the sandbox.
    const named = resolveSandboxPath(path.dirname(file), input.writable, { stopInside: true });
    if (named.kind === 'real') addPrefixOf(named.path, input, prefixes);
  };
  add(input.file);
  const script = scriptToRead(input.file, input.writable);
  const interpreter =
    script === undefined ? undefined : readInterpreter(script, input.searchPath, input.writable);
  if (interpreter !== undefined) add(interpreter);
  return [...prefixes];
}

function addPrefixOf(
  directory: string,
  context: { readonly home: string | undefined; readonly roots: readonly string[] },
  prefixes: Set<string>,
): void {
  if (isVisible(directory)) return;
  const base = path.basename(directory);
  const above = path.dirname(directory);
  const prefix = base === 'bin' || base === 'sbin' ? above : directory;
  const chosen = tooWide(prefix, context) ? directory : prefix;
  if (!tooWide(chosen, context)) prefixes.add(chosen);
}

function isVisible(directory: string): boolean {
  return ALWAYS_VISIBLE.some((visible) => isUnder(directory, visible));
}

function tooWide(
  prefix: string,
  { home, roots }: { readonly home: string | undefined; readonly roots: readonly string[] },
): boolean {
  if (prefix === '/') return true;
  return (
    (home !== undefined && isUnder(home, prefix)) || roots.some((root) => isUnder(root, prefix))
  );
}

// A prefix is shown for a program only: a `#!` line naming another user's key file (a regular
// file, but not executable) must not bind that user's `.ssh` into the view.
function isExecutableFile(file: string): boolean {
  try {
    const info = statSync(file);
    return info.isFile() && (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

// The file whose `#!` line is read: its real path when nothing the sandbox writes is on the way;
// through a workspace symlink only when it ends inside the workspace too (`node_modules/.bin/x`
// -> `../pkg/cli.js`): the host never reads a file the workspace merely points at.
function scriptToRead(file: string, writable: readonly string[]): string | undefined {
  const resolved = resolveSandboxPath(file, writable);
  if (resolved.kind === 'real') return resolved.path;
  if (resolved.kind !== 'workspace_link') return undefined;
  try {
    const real = realpathSync(file);
    return isUnderAny(real, writable) ? real : undefined;
  } catch {
    return undefined;
  }
}

// Only the first line of a script, and only an absolute interpreter (or `env NAME`).
function readInterpreter(
  file: string,
  searchPath: string,
  writable: readonly string[],
): string | undefined {
  let line: string;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(256);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      line = buffer.subarray(0, read).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!line.startsWith('#!')) return undefined;
  const words = (line.slice(2).split('\n')[0] ?? '').trim().split(/\s+/);
  const [interpreter, first] = words;
  if (interpreter === undefined || !interpreter.startsWith('/')) return undefined;
  if (path.basename(interpreter) !== 'env' || first === undefined) return interpreter;
  const name = words.find(
    (word, index) => index > 0 && !word.startsWith('-') && !word.includes('='),
  );
  if (name === undefined || name.includes('/')) return undefined;
  for (const directory of searchPath.split(':')) {
    if (!directory.startsWith('/')) continue;
    const candidate = `${directory}/${name}`;
    const found = resolveSandboxPath(candidate, writable, { stopInside: true });
    if (found.kind === 'inside' || (found.kind === 'real' && isExecutableFile(found.path))) {
      return candidate;
    }
  }
  return undefined;
}
