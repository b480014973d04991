import { constants } from 'node:fs';
import { lstat, mkdir, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createOwnerOnlyFile } from '../owner-only-file.js';

/**
 * Where a running `serve --ui` leaves its page's URL for `toolhost ui`: over stdio, stdout is
 * the protocol and stderr is often swallowed by the MCP client, so the URL needs a place a
 * person can reach. The URL carries the page's token, hence a 0600 file in the state dir.
 */
export const UI_URL_FILE_NAME = 'ui-url';

/** What the file holds: the page's URL and the PID of the serve that answers it. */
export interface UiUrlRecord {
  readonly url: string;
  readonly pid: number;
}

/** Why no record could be used; `toolhost ui` words each for the person. */
export type UiUrlFileProblem = 'missing' | 'unreadable' | 'server_gone';

/** A record read back, or why there is none to use. */
export type UiUrlLookup =
  | { readonly kind: 'found'; readonly record: UiUrlRecord }
  | { readonly kind: 'problem'; readonly problem: UiUrlFileProblem };

/** The record's path in a state dir. */
export function uiUrlFile(stateDir: string): string {
  return path.join(stateDir, UI_URL_FILE_NAME);
}

/**
 * Writes this serve's record, replacing one left by a serve that is gone (killed without
 * cleanup). Undefined (nothing written) when another live serve owns the file: one state dir,
 * one page `toolhost ui` opens; that serve's file is never taken over. Returns the remover.
 */
export async function writeUiUrlFile(
  stateDir: string,
  record: UiUrlRecord,
): Promise<(() => Promise<void>) | undefined> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const file = uiUrlFile(stateDir);
  const text = `${JSON.stringify(record)}\n`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      return await createOwnerOnlyFile(file, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const existing = await readUiUrlFile(stateDir);
    if (existing.kind === 'found') return undefined;
    // A stale record (or a broken one, never a symlink: lstat) is ours to clear.
    const stats = await lstat(file).catch(() => undefined);
    if (stats !== undefined && !stats.isFile()) return undefined;
    await unlink(file).catch(() => undefined);
  }
  return undefined;
}

/** Reads the record and checks that its serve process is still alive. */
export async function readUiUrlFile(stateDir: string): Promise<UiUrlLookup> {
  let text: string;
  try {
    // Never through a symlink, never a FIFO that would hang the read.
    const handle = await open(
      uiUrlFile(stateDir),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      if (!(await handle.stat()).isFile()) return problem('unreadable');
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    return problem((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable');
  }
  const record = parseRecord(text);
  if (record === undefined) return problem('unreadable');
  return isAlive(record.pid) ? { kind: 'found', record } : problem('server_gone');
}

function problem(kind: UiUrlFileProblem): UiUrlLookup {
  return { kind: 'problem', problem: kind };
}

function parseRecord(text: string): UiUrlRecord | undefined {
  try {
    const value = JSON.parse(text) as { url?: unknown; pid?: unknown };
    if (typeof value.url !== 'string' || !Number.isSafeInteger(value.pid)) return undefined;
    const url = new URL(value.url);
    // Only ever a loopback page: a planted record must not send the person elsewhere.
    if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') return undefined;
    return { url: url.href, pid: value.pid as number };
  } catch {
    return undefined;
  }
}

// Signal 0 probes without signalling; EPERM means alive under another user (not ours, but live).
function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
