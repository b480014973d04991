import { readSync } from 'node:fs';
import { ToolExecutionError } from '@toolhost/core';
import { errnoCode } from './fs-error.js';
import { GitignoreStack } from './gitignore-stack.js';
import type { Jail, OpenedEntry } from './jail.js';
import type { ChildFileRead } from './open-child-file.js';
import { directoryRules } from './search-walk.js';
import { visibleDirents } from './walk-tree.js';

const TOOL_ID = 'search_files';

/** The start: a directory to walk, or one named file (already checked by the full jail). */
export async function openStart(jail: Jail, requested: string): Promise<OpenedEntry> {
  try {
    return await jail.openForRead(TOOL_ID, requested, 'directory');
  } catch (error) {
    const notDirectory =
      errnoCode(error) === 'ENOTDIR' ||
      (error instanceof ToolExecutionError && error.reason === 'not_a_directory');
    if (!notDirectory) throw error;
    return await jail.openForRead(TOOL_ID, requested, 'file');
  }
}

/** Reads the one named file into `buffer`, bounded like a walked file. */
export function readOpened(opened: OpenedEntry, buffer: Buffer): ChildFileRead {
  const { size } = opened.stats;
  if (size > buffer.length) return { kind: 'too_large' };
  let length = 0;
  while (length < size) {
    const bytesRead = readSync(opened.fd, buffer, length, size - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return { kind: 'read', length };
}

/**
 * The rules of the start's ancestors inside the root, and the start's path below the root they
 * are relative to. A start outside the root (another allowed root) takes only its own rules.
 */
export async function ancestorRules(
  jail: Jail,
  display: string,
): Promise<{ prefix: string; rules: GitignoreStack }> {
  if (display === '.' || display.startsWith('/'))
    return { prefix: '', rules: GitignoreStack.empty };
  const segments = display.split('/');
  let rules = GitignoreStack.empty;
  for (let depth = 0; depth < segments.length; depth += 1) {
    const relative = segments.slice(0, depth).join('/');
    let ancestor: OpenedEntry;
    try {
      ancestor = await jail.openForRead(TOOL_ID, relative === '' ? '.' : relative, 'directory');
    } catch {
      break;
    }
    try {
      const dirents = await visibleDirents(jail, ancestor);
      rules = await directoryRules(
        jail,
        ancestor,
        dirents,
        relative === '' ? '' : `${relative}/`,
        rules,
      );
    } finally {
      await ancestor.handle.close();
    }
  }
  // Naming an ignored directory is asking for it: its ancestors' rules would skip it whole.
  for (let depth = 1; depth <= segments.length; depth += 1) {
    if (rules.ignores(`${segments.slice(0, depth).join('/')}/`))
      return { prefix: `${display}/`, rules: GitignoreStack.empty };
  }
  return { prefix: `${display}/`, rules };
}
