import type { FileHandle } from 'node:fs/promises';
import type { AbortSignalLike, FileRead, FsReadRequest } from '@toolhost/core';
import type { NodeMediaStore } from '../media-store/create-media-store.js';
import { fsFailure, throwIfAborted, toFsError } from './fs-error.js';
import { readGlob } from './glob-read.js';
import type { Jail, OpenedEntry } from './jail.js';
import { mimeTypeOf } from './mime-type.js';

const TOOL_ID = 'read_file';
/** Spec §4: the largest file (or page) one read returns. */
export const MAX_READ_BYTES = 8 * 1024 * 1024;
/** Spec §4: a NUL in this many leading bytes means binary. */
export const BINARY_SNIFF_BYTES = 8192;
const PAGE_CHUNK_BYTES = 64 * 1024;
// What models take as an image or a document block; other binaries stay a bare handle.
const VIEWABLE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
]);
/**
 * How far a paged read scans for its lines: a call's whole spill (256 MiB by default) and one page
 * more. A huge sparse file is otherwise scanned from byte 0 until the call times out.
 */
export const MAX_PAGE_SCAN_BYTES = 256 * 1024 * 1024 + MAX_READ_BYTES;

/** `read_file`: a jailed, verified read; binary goes to the media store, text may be paged by line. */
export function createReadFile(jail: Jail, media: NodeMediaStore) {
  const readOne = async (
    request: FsReadRequest,
    store: NodeMediaStore | undefined,
    signal?: AbortSignalLike,
  ): Promise<FileRead> => {
    const opened = await jail.openForRead(TOOL_ID, request.path, 'file');
    try {
      throwIfAborted(TOOL_ID, signal);
      return await readOpened(opened, request, store, signal);
    } finally {
      await opened.handle.close();
    }
  };

  return async function readFile(
    request: FsReadRequest,
    signal?: AbortSignalLike,
  ): Promise<FileRead> {
    try {
      throwIfAborted(TOOL_ID, signal);
      if (request.glob === true)
        return await readGlob(
          jail,
          request.path,
          (file, inner) => readOne({ path: file }, undefined, inner),
          signal,
        );
      return await readOne(request, media, signal);
    } catch (error) {
      throw toFsError(TOOL_ID, error, false);
    }
  };
}

// Without a media store (a glob read) a binary file fails with reason `binary`.
async function readOpened(
  opened: OpenedEntry,
  request: FsReadRequest,
  media: NodeMediaStore | undefined,
  signal?: AbortSignalLike,
): Promise<FileRead> {
  const { handle, stats } = opened;
  const lastModified = stats.mtime.toISOString();
  const paged = request.offset !== undefined || request.limit !== undefined;
  // A whole read within the cap reads the file in one go and sniffs its head; anything else
  // sniffs first, so a paged text read can stream a spill larger than the cap a page at a time.
  const whole = !paged && stats.size <= MAX_READ_BYTES;
  const head = await readRange(
    handle,
    0,
    whole ? stats.size : Math.min(stats.size, BINARY_SNIFF_BYTES),
  );
  const binary = head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
  if (binary && media === undefined) throw fsFailure(TOOL_ID, 'binary', false);
  if (paged && !binary) {
    const content = await readLines(handle, request.offset ?? 0, request.limit, signal);
    return {
      content,
      mimeType: mimeTypeOf(opened.path, false),
      sizeBytes: stats.size,
      lastModified,
    };
  }
  if (stats.size > MAX_READ_BYTES) throw fsFailure(TOOL_ID, 'too_large', false);
  const bytes =
    whole || stats.size <= head.length
      ? head
      : Buffer.concat([head, await readRange(handle, head.length, stats.size - head.length)]);
  if (binary && media !== undefined) {
    const mimeType = mimeTypeOf(opened.path, true);
    const part = await media.put(bytes, {
      mimeType,
      scopes: request.mediaScope === undefined ? [] : [request.mediaScope],
    });
    // A file the model can view rides with its bytes (the jail already allowed the read), so an
    // adapter can deliver the pixels without a second `read_media` call.
    const viewable = VIEWABLE_TYPES.has(mimeType) ? { ...part, data: new Uint8Array(bytes) } : part;
    return { content: '', mimeType, sizeBytes: bytes.byteLength, lastModified, media: viewable };
  }
  return {
    content: bytes.toString('utf8'),
    mimeType: mimeTypeOf(opened.path, false),
    sizeBytes: bytes.byteLength,
    lastModified,
  };
}

// Reads up to `length` bytes from `position`; a file that shrank since fstat gives fewer.
async function readRange(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

// Lines `[offset, offset + limit)`, each with its own line ending; the page itself is capped.
async function readLines(
  handle: FileHandle,
  offset: number,
  limit: number | undefined,
  signal: AbortSignalLike | undefined,
): Promise<string> {
  const end = limit === undefined ? Number.POSITIVE_INFINITY : offset + limit;
  const chunk = Buffer.allocUnsafe(PAGE_CHUNK_BYTES);
  const parts: Buffer[] = [];
  let collected = 0;
  let line = 0;
  let position = 0;
  while (line < end) {
    // Between chunks: an abandoned read stops, and no page scans past its budget.
    throwIfAborted(TOOL_ID, signal);
    if (position >= MAX_PAGE_SCAN_BYTES) throw fsFailure(TOOL_ID, 'too_large', false);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    while (start < bytesRead && line < end) {
      const newline = chunk.indexOf(0x0a, start);
      const stop = newline === -1 || newline >= bytesRead ? bytesRead : newline + 1;
      if (line >= offset) {
        parts.push(Buffer.from(chunk.subarray(start, stop)));
        collected += stop - start;
        if (collected > MAX_READ_BYTES) throw fsFailure(TOOL_ID, 'too_large', false);
      }
      if (stop === newline + 1) line += 1;
      start = stop;
    }
  }
  return Buffer.concat(parts).toString('utf8');
}
