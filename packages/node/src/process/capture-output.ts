import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { SpilledResult } from '@toolhost/core/host';

/** Where one overflowing stream goes: a writable that receives the whole stream, and its ref. */
export interface ProcessSpillTarget {
  readonly writable: Writable;
  /** What the model pages with `read_file` (a readable path on the Node host). */
  readonly ref: string;
  /** Bytes a spill quota let into the file so far; fewer than the stream's means it was cut. */
  readonly keptBytes?: () => number;
}

/** Opens a spill target for one stream of one call; the output store owns its lifetime. */
export type OpenProcessSpill = (stream: 'stdout' | 'stderr') => Promise<ProcessSpillTarget>;

/**
 * A captured stream: the bounded text and, when cut, how big the whole stream was; `spilledBytes`
 * when a spill quota cut the spill file too (it then holds only the stream's first bytes).
 */
export interface CapturedOutput {
  readonly text: string;
  readonly truncated?:
    (SpilledResult & { readonly spilledBytes?: number }) | { readonly byteLength: number };
}

/**
 * Reads a stream into at most `limitBytes` of memory. Until the limit everything is kept; past it
 * the host keeps a ~70% head and a ~30% tail, and the whole stream (from byte 0) goes to a spill
 * target as it arrives. Reading waits on the spill's backpressure, so the child blocks on its
 * pipe instead of the host buffering: peak memory does not grow with output size.
 */
export async function captureOutput(
  readable: Readable,
  options: {
    readonly limitBytes: number;
    readonly stream: 'stdout' | 'stderr';
    readonly openSpill?: OpenProcessSpill | undefined;
    /** Sees every chunk as it arrives (a progress display); it can never alter the capture. */
    readonly onChunk?: ((chunk: Buffer) => void) | undefined;
  },
): Promise<CapturedOutput> {
  const { limitBytes, stream, openSpill, onChunk } = options;
  const headLimit = Math.floor(limitBytes * 0.7);
  const tailLimit = limitBytes - headLimit;
  let held: Buffer[] = [];
  let total = 0;
  let head: Buffer | undefined;
  let tail: Buffer[] = [];
  let tailBytes = 0;
  let spill: ProcessSpillTarget | undefined;
  let spillBroken = false;

  // Writes to the spill; pauses the source until the spill drains (the child then blocks on its
  // pipe instead of the host buffering).
  let opening: Buffer[] | undefined;
  const writeSpill = (chunk: Buffer): void => {
    // A chunk that slips in while the spill is still opening is queued, never lost.
    if (opening !== undefined) return void opening.push(chunk);
    if (spill === undefined || spillBroken) return;
    if (!spill.writable.write(chunk)) {
      readable.pause();
      spill.writable.once('drain', () => readable.resume());
    }
  };

  const overflow = async (): Promise<void> => {
    readable.pause();
    const all = Buffer.concat(held);
    held = [];
    head = all.subarray(0, headLimit);
    tail = [all.subarray(all.length - tailLimit)];
    tailBytes = tailLimit;
    opening = [];
    spill = await openSpill?.(stream).catch(() => undefined);
    const queued = opening;
    opening = undefined;
    // A full disk must not fail the call: the result still says how much was cut.
    spill?.writable.once('error', () => {
      spillBroken = true;
      readable.resume();
    });
    writeSpill(all);
    for (const chunk of queued) writeSpill(chunk);
    if (spill === undefined || spill.writable.writableNeedDrain !== true) readable.resume();
  };

  await new Promise<void>((resolve) => {
    let overflowing: Promise<void> | undefined;
    readable.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (onChunk !== undefined) observe(onChunk, chunk);
      if (head === undefined) {
        held.push(chunk);
        if (total > limitBytes && overflowing === undefined) overflowing = overflow();
        return;
      }
      tail.push(chunk);
      tailBytes += chunk.length;
      while (tail.length > 1 && tailBytes - (tail[0]?.length ?? 0) >= tailLimit) {
        tailBytes -= tail.shift()?.length ?? 0;
      }
      writeSpill(chunk);
    });
    // 'close' also covers a pipe the host destroyed because a descendant it could not kill
    // still held it: keep what arrived.
    readable.once('close', () => void (overflowing ?? Promise.resolve()).then(resolve));
    readable.once('error', () => undefined);
  });

  if (head === undefined) return { text: Buffer.concat(held).toString('utf8') };
  const tailBuffer = Buffer.concat(tail);
  const tailKept = tailBuffer.subarray(Math.max(0, tailBuffer.length - tailLimit));
  const omitted = total - head.length - tailKept.length;
  let truncated: CapturedOutput['truncated'] = { byteLength: total };
  let unavailable = 'no spill';
  if (spill !== undefined && !spillBroken) {
    const finished = await finishSpill(spill.writable);
    const kept = spill.keptBytes?.() ?? total;
    if (finished && kept === 0) unavailable = 'spill quota reached';
    else if (finished && kept < total)
      truncated = { ref: spill.ref, byteLength: total, spilledBytes: kept };
    else if (finished) truncated = { ref: spill.ref, byteLength: total };
  }
  const where = !('ref' in truncated)
    ? `full output unavailable (${unavailable})`
    : truncated.spilledBytes === undefined
      ? `full output at ${truncated.ref}`
      : `only the first ${truncated.spilledBytes} bytes at ${truncated.ref} (spill quota reached)`;
  const marker = `\n[… truncated: ${omitted} bytes of ${total} omitted; ${where} …]\n`;
  return {
    text: decodeHead(head) + marker + decodeTail(tailKept),
    truncated,
  };
}

function observe(onChunk: (chunk: Buffer) => void, chunk: Buffer): void {
  try {
    onChunk(chunk);
  } catch {
    // An observer's bug must not lose output or hang the call.
  }
}

async function finishSpill(writable: Writable): Promise<boolean> {
  try {
    const finished = once(writable, 'finish');
    writable.end();
    await finished;
    return true;
  } catch {
    return false;
  }
}

// Cut on code-point boundaries: drop a trailing partial UTF-8 sequence from the head and a
// leading run of continuation bytes from the tail, instead of printing U+FFFD halves.
/** UTF-8 text of `bytes`, minus a trailing partial code point (never a U+FFFD half). */
export function decodeHead(bytes: Buffer): string {
  let end = bytes.length;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && ((bytes[end - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < needed) end -= back + 1;
  }
  return bytes.subarray(0, end).toString('utf8');
}

function decodeTail(bytes: Buffer): string {
  let start = 0;
  while (start < 4 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}
