import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  access,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '@toolhost/core';
import type { AbortSignalLike, DurableMediaPart, MediaInfo, MediaStore } from '@toolhost/core/host';
import { SPILL_MAX_AGE_MS } from '../output-store/create-output-store.js';

/** What a caller stores with the bytes. */
export interface MediaPutOptions {
  readonly mimeType: string;
  /** Scopes allowed to read the object; an existing object gains these (the union). */
  readonly scopes: readonly string[];
}

/** The Node media store: core's `MediaStore` plus `put` for the arms that produce media. */
export interface NodeMediaStore extends MediaStore {
  put(bytes: Uint8Array, options: MediaPutOptions): Promise<DurableMediaPart>;
  /** Drops this run's references and deletes every object no other run references; idempotent. */
  close(): Promise<void>;
}

/** Like spills (spec §2.3): references of runs that never closed count for a day, then lapse. */
export const MEDIA_MAX_AGE_MS = SPILL_MAX_AGE_MS;

interface StoredMeta {
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly allowedScopes: readonly string[];
}

const HANDLE = /^media:\/\/sha256-([0-9a-f]{64})$/;
const HEX = /^[0-9a-f]{64}$/;
const OBJECT = /^([0-9a-f]{64})\.(?:bin|json)$/;
const { O_RDONLY, O_NOFOLLOW } = constants;

/**
 * A content-addressed store under `<stateDir>/media`: `<hex>.bin` holds the bytes, `<hex>.json`
 * the MIME type and the scopes allowed to read them. Both are written by temp file + rename, so a
 * reader never sees half an object.
 *
 * Lifetime: an object lives while some run references it. `put` first records the reference
 * `refs/<runId>/<hex>` (an empty file), then writes the object; `close` (host close) removes the
 * run's references and deletes each object it referenced that no other run's `refs/` still
 * names. Runs that never closed: on creation, another run's `refs/<runId>` untouched for a day is
 * dropped, and an object older than a day that no reference names is deleted. Other hosts may
 * share the state dir, so a reference is written before the bytes and an object is only deleted
 * after its last reference is gone; what remains is a narrow race with another process putting
 * the same bytes at that instant, which fails closed (its `read_media` answers not_found).
 */
export async function createMediaStore(
  stateDir: string,
  runId: string,
  now: number = Date.now(),
): Promise<NodeMediaStore> {
  const directory = path.join(stateDir, 'media');
  const refsRoot = path.join(directory, 'refs');
  const ownRefs = path.join(refsRoot, runId);
  await mkdir(refsRoot, { recursive: true, mode: 0o700 });
  await sweepStale(directory, refsRoot, runId, now);
  await mkdir(ownRefs, { recursive: true, mode: 0o700 });
  // Serialises read-modify-write of one object's metadata within this process.
  const pending = new Map<string, Promise<unknown>>();
  const file = (hex: string, extension: 'bin' | 'json') =>
    path.join(directory, `${hex}.${extension}`);

  const readMeta = async (hex: string): Promise<StoredMeta | undefined> => {
    try {
      return JSON.parse(await readFile(file(hex, 'json'), 'utf8')) as StoredMeta;
    } catch {
      return undefined;
    }
  };

  let closed = false;
  let closing: Promise<void> | undefined;

  return {
    close() {
      closing ??= (async () => {
        closed = true;
        await Promise.all(pending.values());
        for (const hex of await readdir(ownRefs).catch((): string[] => [])) {
          await unlink(path.join(ownRefs, hex)).catch(() => undefined);
          if (HEX.test(hex) && !(await isReferenced(refsRoot, hex)))
            await removeObject(directory, hex);
        }
        await rm(ownRefs, { recursive: true, force: true });
      })();
      return closing;
    },

    async put(bytes, options) {
      const hex = createHash('sha256').update(bytes).digest('hex');
      const handle = `media://sha256-${hex}`;
      const previous = pending.get(hex) ?? Promise.resolve();
      const next = previous.then(async () => {
        if (closed) throw new ToolExecutionError('read_media', 'store_closed');
        // The reference first: a concurrent sweep by another run must see the object as in use.
        await writeFile(path.join(ownRefs, hex), '', { mode: 0o600 });
        const existing = await readMeta(hex);
        // Metadata without bytes (a crash between the two renames) gets its bytes back.
        if (existing === undefined || !(await exists(file(hex, 'bin'))))
          await writeAtomically(directory, file(hex, 'bin'), bytes);
        const meta: StoredMeta = {
          mimeType: existing?.mimeType ?? options.mimeType,
          sizeBytes: bytes.byteLength,
          allowedScopes: [
            ...new Set([...(existing?.allowedScopes ?? []), ...options.scopes]),
          ].sort(),
        };
        await writeAtomically(directory, file(hex, 'json'), JSON.stringify(meta));
        return meta;
      });
      pending.set(
        hex,
        next.catch(() => undefined),
      );
      const meta = await next;
      return { type: 'media', handle, mimeType: meta.mimeType, sizeBytes: meta.sizeBytes };
    },

    async stat(handle: string, _signal?: AbortSignalLike): Promise<MediaInfo | undefined> {
      const hex = HANDLE.exec(handle)?.[1];
      if (hex === undefined) return undefined;
      const meta = await readMeta(hex);
      if (meta === undefined) return undefined;
      return {
        handle,
        mimeType: meta.mimeType,
        sizeBytes: meta.sizeBytes,
        allowedScopes: meta.allowedScopes,
      };
    },

    async read(handle, range, _signal?: AbortSignalLike) {
      const hex = HANDLE.exec(handle)?.[1];
      if (hex === undefined) throw new ToolExecutionError('read_media', 'not_found');
      const { start, end } = range;
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start)
        throw new ToolExecutionError('read_media', 'invalid_range');
      let fileHandle;
      try {
        fileHandle = await open(file(hex, 'bin'), O_RDONLY | O_NOFOLLOW);
      } catch (error) {
        throw new ToolExecutionError('read_media', 'not_found', {
          cause: error,
          recoverable: true,
        });
      }
      try {
        const { size } = await fileHandle.stat();
        if (end >= size) throw new ToolExecutionError('read_media', 'invalid_range');
        const buffer = Buffer.alloc(end - start + 1);
        let filled = 0;
        while (filled < buffer.length) {
          const { bytesRead } = await fileHandle.read(
            buffer,
            filled,
            buffer.length - filled,
            start + filled,
          );
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
      } finally {
        await fileHandle.close();
      }
    },
  };
}

async function exists(target: string): Promise<boolean> {
  return access(target).then(
    () => true,
    () => false,
  );
}

async function writeAtomically(
  directory: string,
  target: string,
  data: Uint8Array | string,
): Promise<void> {
  const temporary = path.join(directory, `.${randomBytes(8).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { mode: 0o600, flag: 'wx' });
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

// Whether any run's reference directory still names the object.
async function isReferenced(refsRoot: string, hex: string): Promise<boolean> {
  for (const run of await readdir(refsRoot).catch((): string[] => [])) {
    if (await exists(path.join(refsRoot, run, hex))) return true;
  }
  return false;
}

async function removeObject(directory: string, hex: string): Promise<void> {
  // Metadata first: without it the object is unknown (denied), never half-readable.
  await unlink(path.join(directory, `${hex}.json`)).catch(() => undefined);
  await unlink(path.join(directory, `${hex}.bin`)).catch(() => undefined);
}

// Leftovers of runs that never closed: their references lapse after a day, then objects a day
// old that nothing references go, as do a day-old temp files of an interrupted write.
async function sweepStale(
  directory: string,
  refsRoot: string,
  currentRunId: string,
  now: number,
): Promise<void> {
  const isStale = async (target: string): Promise<boolean> => {
    try {
      // lstat: a planted symlink is judged (and removed) itself, never followed.
      return now - (await lstat(target)).mtimeMs > MEDIA_MAX_AGE_MS;
    } catch {
      return false;
    }
  };
  for (const run of await readdir(refsRoot)) {
    if (run === currentRunId) continue;
    const refs = path.join(refsRoot, run);
    if (await isStale(refs)) await rm(refs, { recursive: true, force: true });
  }
  const referenced = new Set<string>();
  for (const run of await readdir(refsRoot).catch((): string[] => [])) {
    for (const hex of await readdir(path.join(refsRoot, run)).catch((): string[] => [])) {
      referenced.add(hex);
    }
  }
  for (const name of await readdir(directory)) {
    const hex = OBJECT.exec(name)?.[1];
    const orphan = hex !== undefined && !referenced.has(hex);
    const temporary = name.startsWith('.') && name.endsWith('.tmp');
    if ((orphan || temporary) && (await isStale(path.join(directory, name)))) {
      await unlink(path.join(directory, name)).catch(() => undefined);
    }
  }
}
