import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '@toolhost/core';
import type { AbortSignalLike, DurableMediaPart, MediaInfo, MediaStore } from '@toolhost/core';

/** What a caller stores with the bytes. */
export interface MediaPutOptions {
  readonly mimeType: string;
  /** Scopes allowed to read the object; an existing object gains these (the union). */
  readonly scopes: readonly string[];
}

/** The Node media store: core's `MediaStore` plus `put` for the arms that produce media. */
export interface NodeMediaStore extends MediaStore {
  put(bytes: Uint8Array, options: MediaPutOptions): Promise<DurableMediaPart>;
}

interface StoredMeta {
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly allowedScopes: readonly string[];
}

const HANDLE = /^media:\/\/sha256-([0-9a-f]{64})$/;
const { O_RDONLY, O_NOFOLLOW } = constants;

/**
 * A content-addressed store under `<stateDir>/media`: `<hex>.bin` holds the bytes, `<hex>.json`
 * the MIME type and the scopes allowed to read them. Both are written by temp file + rename, so a
 * reader never sees half an object.
 */
export async function createMediaStore(stateDir: string): Promise<NodeMediaStore> {
  const directory = path.join(stateDir, 'media');
  await mkdir(directory, { recursive: true, mode: 0o700 });
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

  return {
    async put(bytes, options) {
      const hex = createHash('sha256').update(bytes).digest('hex');
      const handle = `media://sha256-${hex}`;
      const previous = pending.get(hex) ?? Promise.resolve();
      const next = previous.then(async () => {
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
