import path from 'node:path';
import type { PositionalReader } from './read-descriptor.js';

// The output store's name for a spilled result (`000001-1a2b3c4d.txt`); process output spills
// (`process-stdout-….txt`) are the raw stream and have no header.
const RESULT_SPILL_NAME = /^\d{6}-[0-9a-f]{8}\.txt$/;
// A rendering's section header: a run of `=` (five or more), a field name, the same run.
const SECTION_HEADER = /^(={5,}) [A-Za-z0-9_.-]{1,64} \1$/;
// A rendering's head is the result's small fields as indented JSON; past this it is not one.
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Where the text of a spilled result starts: a spill of a rendered result begins with its
 * small fields as indented JSON and a `===== content =====` line, which a windowed read skips
 * so `offset` counts the original text's lines. 0 for any other file, or a spill without it.
 * Only files the output store wrote are looked at (no tool can write the spill directory).
 */
export async function spillBodyStart(
  handle: PositionalReader,
  realPath: string,
  spillDir: string,
): Promise<number> {
  if (path.dirname(realPath) !== path.resolve(spillDir)) return 0;
  if (!RESULT_SPILL_NAME.test(path.basename(realPath))) return 0;
  const buffer = Buffer.allocUnsafe(MAX_HEADER_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, MAX_HEADER_BYTES, 0);
  const head = buffer.subarray(0, bytesRead).toString('latin1');
  return headerEnd(head);
}

// Indented JSON never holds a raw newline inside a string, so its first line that is exactly
// `}` closes it (`{}` alone when it has no fields); the next line must be a section header.
function headerEnd(head: string): number {
  let lineStart = 0;
  let closed = false;
  for (let index = 0; ; index += 1) {
    const newline = head.indexOf('\n', lineStart);
    if (newline === -1) return 0;
    const line = head.slice(lineStart, newline);
    lineStart = newline + 1;
    if (index === 0) {
      if (line === '{}') closed = true;
      else if (line !== '{') return 0;
      continue;
    }
    if (closed) return SECTION_HEADER.test(line) ? lineStart : 0;
    if (line === '}') closed = true;
  }
}
