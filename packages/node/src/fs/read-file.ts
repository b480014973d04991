import { isUtf8 } from 'node:buffer';
import { closeSync } from 'node:fs';
import { attachUtf8Source } from '@toolhost/core/bound';
import type { AbortSignalLike, FileRead, FsReadRequest } from '@toolhost/core/host';
import type { NodeMediaStore } from '../media-store/create-media-store.js';
import { decodeText } from './decode-text.js';
import { fsFailure, throwIfAborted, toFsError } from './fs-error.js';
import { readGlob } from './glob-read.js';
import { isoTimestamp } from './iso-timestamp.js';
import type { Jail, OpenedFile } from './jail.js';
import { mimeTypeOf } from './mime-type.js';
import { descriptorReader, type PositionalReader } from './read-descriptor.js';
import { readWindow } from './read-window.js';
import { spillBodyStart } from './spill-body-start.js';

const TOOL_ID = 'read_file';
// Below this a result rarely spills, and encoding it back costs next to nothing.
const KEEP_BYTES_FROM = 16 * 1024;
/** Spec §4: the largest file (or page) one read returns. */
export const MAX_READ_BYTES = 8 * 1024 * 1024;
/** Spec §4: a NUL in this many leading bytes means binary. */
export const BINARY_SNIFF_BYTES = 8192;
// What models take as an image or a document block; other binaries stay a bare handle.
const VIEWABLE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
]);

/** `read_file`: a jailed, verified read; binary goes to the media store, text may be paged by line. */
export function createReadFile(jail: Jail, media: NodeMediaStore) {
  const readOne = async (
    request: FsReadRequest,
    store: NodeMediaStore | undefined,
    signal?: AbortSignalLike,
  ): Promise<FileRead> => {
    // Opened and verified synchronously: the read below is the call's one thread-pool hop.
    const opened = jail.openFileForRead(TOOL_ID, request.path);
    try {
      throwIfAborted(TOOL_ID, signal);
      return await readOpened(
        opened,
        { request, media: store, spillDir: jail.floor.spillDir, keepBytes: store !== undefined },
        signal,
      );
    } finally {
      closeSync(opened.fd);
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

/** What one read works with besides the opened file. */
interface ReadContext {
  readonly request: FsReadRequest;
  /** Absent for a glob read: a binary file then fails with reason `binary`. */
  readonly media: NodeMediaStore | undefined;
  readonly spillDir: string;
  /** The read is the call's result (not a glob's part): its bytes may ride along for a spill. */
  readonly keepBytes: boolean;
}

async function readOpened(
  opened: OpenedFile,
  { request, media, spillDir, keepBytes }: ReadContext,
  signal?: AbortSignalLike,
): Promise<FileRead> {
  const { stats } = opened;
  const handle = descriptorReader(opened.fd);
  // `stats.mtime.toISOString()` without the Date: the same text, formatted from `mtimeMs`.
  const lastModified = isoTimestamp(stats.mtimeMs);
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
    // A spilled result pages by the original text's lines: its header is not counted.
    const start = await spillBodyStart(handle, opened.path, spillDir);
    const window = await readWindow(handle, {
      start,
      offset: request.offset ?? 0,
      limit: request.limit,
      signal,
    });
    return {
      content: window.content,
      mimeType: mimeTypeOf(opened.path, false),
      sizeBytes: stats.size,
      lastModified,
      ...(window.totalLines === undefined ? {} : { totalLines: window.totalLines }),
      more: window.more,
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
  const read: FileRead = {
    content: decodeText(bytes),
    mimeType: mimeTypeOf(opened.path, false),
    sizeBytes: bytes.byteLength,
    lastModified,
  };
  // Only bytes that decode without replacement are the content's UTF-8 exactly: a spill of the
  // result then writes them instead of encoding the content back (checked only if it spills).
  return keepBytes && bytes.byteLength >= KEEP_BYTES_FROM
    ? attachUtf8Source(read, {
        text: read.content,
        bytes: () => (isUtf8(bytes) ? bytes : undefined),
      })
    : read;
}

// Reads up to `length` bytes from `position`; a file that shrank since fstat gives fewer.
async function readRange(
  handle: PositionalReader,
  position: number,
  length: number,
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}
