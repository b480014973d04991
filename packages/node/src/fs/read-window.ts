import type { AbortSignalLike } from '@toolhost/core/host';
import { decodeText } from './decode-text.js';
import { fsFailure, throwIfAborted } from './fs-error.js';
import type { PositionalReader } from './read-descriptor.js';

const TOOL_ID = 'read_file';
/** Spec §4: the largest page one read returns. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
/**
 * How far a paged read scans for its lines: a call's whole spill (256 MiB by default) and one page
 * more. A huge sparse file is otherwise scanned from byte 0 until the call times out.
 */
export const MAX_PAGE_SCAN_BYTES = 256 * 1024 * 1024 + MAX_PAGE_BYTES;

/** Which lines a windowed read wants, counted from the byte `start` (0, or a spill's body). */
export interface LineWindow {
  readonly start: number;
  readonly offset: number;
  readonly limit: number | undefined;
  readonly signal: AbortSignalLike | undefined;
}

/** A window's text, the file's line count when the scan budget let it count them all, and `more`. */
export interface WindowRead {
  readonly content: string;
  readonly totalLines?: number;
  readonly more: boolean;
}

/**
 * Lines `[offset, offset + limit)` from `start`, each with its own line ending (a last line may
 * have none), then the rest of the file counted (not kept) so the model knows how far it goes.
 * The page is capped and the whole scan bounded; past the budget before the window ends it is
 * `too_large`, after it the count is left out (`more` still holds: bytes remain).
 */
export async function readWindow(
  handle: PositionalReader,
  window: LineWindow,
): Promise<WindowRead> {
  const { start, offset, limit, signal } = window;
  const end = limit === undefined ? Number.POSITIVE_INFINITY : offset + limit;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const parts: Buffer[] = [];
  let collected = 0;
  // Lines finished so far, and whether bytes of an unfinished one were seen.
  let line = 0;
  let open = false;
  let position = start;
  for (;;) {
    // Between chunks: an abandoned read stops, and no page scans past its budget.
    throwIfAborted(TOOL_ID, signal);
    if (position >= MAX_PAGE_SCAN_BYTES) {
      if (line < end) throw fsFailure(TOOL_ID, 'too_large', false);
      return { content: joined(parts), more: true };
    }
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let at = 0;
    while (at < bytesRead) {
      const newline = chunk.indexOf(NEWLINE, at);
      const stop = newline === -1 || newline >= bytesRead ? bytesRead : newline + 1;
      if (line >= offset && line < end) {
        parts.push(Buffer.from(chunk.subarray(at, stop)));
        collected += stop - at;
        if (collected > MAX_PAGE_BYTES) throw fsFailure(TOOL_ID, 'too_large', false);
      }
      if (stop === newline + 1) {
        line += 1;
        open = false;
      } else open = true;
      at = stop;
    }
  }
  const totalLines = line + (open ? 1 : 0);
  return { content: joined(parts), totalLines, more: totalLines > end };
}

function joined(parts: readonly Buffer[]): string {
  return decodeText(Buffer.concat(parts));
}
