import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Directories the sandbox shows anyway: an executable there needs no extra bind. */
const ALWAYS_VISIBLE = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc'];

/**
 * The installation prefixes an executable needs to run: the directory above its `bin` (e.g.
 * `/usr/local` for `/usr/local/bin/tool`, an nvm prefix for `node`), for the path as resolved on
 * PATH and for its realpath, and the same for a `#!` interpreter (`#!/usr/bin/env node` looks
 * `node` up on `searchPath`). A prefix that would expose `/`, the home directory or a parent of a
 * root shrinks to the executable's own directory.
 */
export function executablePrefixes(input: {
  readonly file: string;
  readonly searchPath: string;
  readonly home: string | undefined;
  readonly roots: readonly string[];
}): string[] {
  const prefixes = new Set<string>();
  const add = (file: string): void => {
    for (const candidate of [file, realOrSelf(file)]) {
      const prefix = prefixOf(candidate, input);
      if (prefix !== undefined) prefixes.add(prefix);
    }
  };
  add(input.file);
  const interpreter = readInterpreter(realOrSelf(input.file), input.searchPath);
  if (interpreter !== undefined) add(interpreter);
  return [...prefixes];
}

function prefixOf(
  file: string,
  context: { readonly home: string | undefined; readonly roots: readonly string[] },
): string | undefined {
  const directory = path.dirname(file);
  if (isVisible(directory)) return undefined;
  const base = path.basename(directory);
  const above = path.dirname(directory);
  const prefix = base === 'bin' || base === 'sbin' ? above : directory;
  return tooWide(prefix, context) ? directory : prefix;
}

function isVisible(directory: string): boolean {
  return ALWAYS_VISIBLE.some(
    (visible) => directory === visible || directory.startsWith(`${visible}/`),
  );
}

function tooWide(
  prefix: string,
  { home, roots }: { readonly home: string | undefined; readonly roots: readonly string[] },
): boolean {
  if (prefix === '/') return true;
  const isAncestorOf = (target: string): boolean =>
    target === prefix || target.startsWith(`${prefix}/`);
  return (home !== undefined && isAncestorOf(home)) || roots.some(isAncestorOf);
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

// Only the first line of a script, and only an absolute interpreter (or `env NAME`).
function readInterpreter(file: string, searchPath: string): string | undefined {
  let line: string;
  try {
    const fd = openSync(file, 'r');
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
    const candidate = path.join(directory, name);
    try {
      realpathSync(candidate);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}
