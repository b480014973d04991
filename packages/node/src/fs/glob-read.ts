import path from 'node:path';
import picomatch from 'picomatch';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import type { AbortSignalLike, FileRead } from '@toolhost/core/host';
import { throwIfAborted, toFsError } from './fs-error.js';
import type { Jail } from './jail.js';
import { MAX_SCANNED_ENTRIES } from './list-directory.js';
import { walkTree } from './walk-tree.js';
import { compileGlob } from './compile-glob.js';

const TOOL_ID = 'read_file';

/** Reads one file through the jail as text; a binary file fails with reason `binary`. */
export type ReadText = (file: string, signal?: AbortSignalLike) => Promise<FileRead>;
/** Spec §4: the most files one glob read returns. */
export const MAX_GLOB_MATCHES = 200;
const MAX_GLOB_BYTES = 8 * 1024 * 1024;

/**
 * `read_file` with `glob: true`: every matching file (capped) as `===== rel/path =====` sections.
 * Matches come from the same floor-filtered, symlink-refusing walk as a listing, and each file is
 * then read through the full jail like a single read.
 */
export async function readGlob(
  jail: Jail,
  pattern: string,
  readText: ReadText,
  signal?: AbortSignalLike,
): Promise<FileRead> {
  const scanned = picomatch.scan(pattern);
  const base = scanned.isGlob ? scanned.base : path.dirname(pattern);
  const glob = scanned.isGlob ? scanned.glob : path.basename(pattern);
  const matches = await compileGlob(TOOL_ID, 'path', glob);
  const directory = await jail.openForRead(TOOL_ID, base === '' ? '.' : base, 'directory');
  const files: string[] = [];
  let truncated = false;
  let scannedCount = 0;
  try {
    await walkTree(jail, directory, {
      toolId: TOOL_ID,
      // A glob with no `/` can only match names in the base directory.
      recursive: glob.includes('/') || glob.includes('**'),
      signal,
      visit(entry) {
        scannedCount += 1;
        if (scannedCount > MAX_SCANNED_ENTRIES) {
          truncated = true;
          return false;
        }
        if (entry.type === 'directory' || !matches(entry.relative)) return true;
        if (files.length === MAX_GLOB_MATCHES) {
          truncated = true;
          return false;
        }
        files.push(entry.path);
        return true;
      },
    });
  } finally {
    await directory.handle.close();
  }

  const sections: string[] = [];
  let bytes = 0;
  let count = 0;
  let lastModified = 0;
  for (const file of files) {
    throwIfAborted(TOOL_ID, signal);
    const section = await readSection(jail, file, readText, signal);
    // A match the full jail refuses (a symlink to a floor file) is omitted like a listing entry.
    if (section === undefined) continue;
    if (bytes + Buffer.byteLength(section.text) > MAX_GLOB_BYTES) {
      truncated = true;
      break;
    }
    sections.push(section.text);
    bytes += Buffer.byteLength(section.text);
    count += 1;
    lastModified = Math.max(lastModified, section.lastModified);
  }
  const content = sections.join('');
  return {
    content,
    mimeType: 'text/plain',
    sizeBytes: Buffer.byteLength(content),
    lastModified: new Date(lastModified).toISOString(),
    matches: { count, truncated },
  };
}

async function readSection(
  jail: Jail,
  file: string,
  readText: ReadText,
  signal?: AbortSignalLike,
): Promise<{ text: string; lastModified: number } | undefined> {
  const header = `===== ${jail.displayName(file)} =====\n`;
  let body: string;
  let lastModified = 0;
  try {
    const read = await readText(file, signal);
    lastModified = Date.parse(read.lastModified);
    body = read.content;
  } catch (caught) {
    const error = toFsError(TOOL_ID, caught, false);
    if (error instanceof ToolPolicyError) return undefined;
    // A binary match is named, not attached: a glob read never stores media.
    if (error instanceof ToolExecutionError) body = `[skipped: ${error.reason}]`;
    else throw error;
  }
  return { text: `${header}${body}${body.endsWith('\n') ? '' : '\n'}`, lastModified };
}
